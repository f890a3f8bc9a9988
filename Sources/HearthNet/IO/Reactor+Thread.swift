import HearthSystem

extension Reactor {
    /// Starts `runLoop()` on its own OS thread (it blocks in `epoll_wait`, so never on a Swift concurrency thread).
    /// The caller joins the thread after sending `.finish`, and only then reads `failure`.
    func startThread() throws(IOError) -> DedicatedThread {
        let handoff = Handoff(reactor: self)
        do {
            return try DedicatedThread.start(name: "hearth-reactor") { handoff.reactor.runLoop() }
        } catch {
            throw IOError(.syscallFailed, error.message, errorNumber: error.errorNumber)
        }
    }

    /// Carries the reactor to its thread. `@unchecked Sendable`: from `runLoop()` on, only the reactor thread
    /// touches its state (see the type's thread confinement), and `HTTPServer` reads `failure` after `join()`.
    private struct Handoff: @unchecked Sendable {
        let reactor: Reactor
    }
}
