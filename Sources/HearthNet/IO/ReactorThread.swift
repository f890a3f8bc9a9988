import Glibc

/// The dedicated OS thread a `Reactor` runs on (a pthread, so the reactor never borrows a Swift concurrency
/// thread for a blocking `epoll_wait`).
struct ReactorThread {
    private let thread: pthread_t

    /// Starts `reactor.runLoop()` on a new thread; the thread keeps the reactor alive until the loop returns.
    static func start(_ reactor: Reactor) throws(IOError) -> ReactorThread {
        let context = Unmanaged.passRetained(reactor).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread,
            nil,
            { context in
                guard let context else { return nil }
                let reactor = Unmanaged<Reactor>.fromOpaque(context).takeRetainedValue()
                reactor.runLoop()
                return nil
            },
            context
        )
        guard result == 0 else {
            Unmanaged<Reactor>.fromOpaque(context).release()
            throw Syscall.error("pthread_create", result)
        }
        return ReactorThread(thread: thread)
    }

    /// Waits for the loop to return; it does so promptly once the finish command has been handled.
    func join() {
        _ = pthread_join(self.thread, nil)
    }
}
