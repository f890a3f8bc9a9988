public import Glibc

/// A program this process started with `posix_spawn`: its pid, the pipes to its standard streams, signals, and its
/// exit status once it has ended.
///
/// Foundation's `Process.run()` on our toolchain crashes about one run in five (swift-corelibs-foundation#5472: it
/// over-reads `/proc/self/fd` entries while closing descriptors), and the crashed test run then hangs; every program
/// the tests and the benchmark start goes through this instead. The child gets the default signal dispositions, an
/// empty signal mask and no descriptor of ours but the three standard ones.
///
/// The child is reaped exactly once, under a lock, so a signal is never sent to a pid the system has given to
/// another process. A child still unreaped when this object goes away is reaped by a thread of its own when it ends,
/// so none lingers as a zombie.
public final class ChildProcess: Sendable {
    /// The child's process id.
    public let identifier: pid_t
    /// Our end of the child's standard input, when it was `.pipe`.
    public let standardInput: ChildProcessPipe?
    /// Our end of the child's standard output, when it was `.pipe`.
    public let standardOutput: ChildProcessPipe?
    /// Our end of the child's standard error, when it was `.pipe`.
    public let standardError: ChildProcessPipe?
    /// How it ended, once it has been reaped; nil while it runs.
    private let ended: Lock<Termination?>

    /// Starts `executable` (a path; no `PATH` search) with `arguments`, in this process's working directory.
    /// - Parameters:
    ///   - environment: the program's whole environment; nil: this process's.
    /// - Throws: `ChildProcessError` when the program cannot be started (missing, not executable, out of resources).
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        standardInput: Input = .inherit, standardOutput: Output = .inherit, standardError: Output = .inherit
    ) throws(ChildProcessError) {
        let spawned = try Spawn.start(
            executable, arguments, environment: environment,
            streams: (standardInput, standardOutput, standardError))
        self.identifier = spawned.identifier
        (self.standardInput, self.standardOutput, self.standardError) = spawned.pipes
        self.ended = Lock(nil)
    }

    deinit {
        guard self.termination == nil else { return }
        let identifier = self.identifier
        let ended = self.ended
        // A thread that cannot start leaves a zombie until this process ends: harmless, and nothing to report to.
        _ = try? DedicatedThread.start(name: "child-reaper") {
            _ = Self.wait(identifier, ended)
        }.detach()
    }

    /// How the child ended, reaping it if it has; nil while it runs. Never blocks.
    public var termination: Termination? {
        Self.reap(self.identifier, self.ended)
    }

    /// Whether the child has not ended yet.
    public var isRunning: Bool { self.termination == nil }

    /// Blocks the calling thread until the child ends; returns how it ended.
    @discardableResult
    public func wait() -> Termination {
        Self.wait(self.identifier, self.ended)
    }

    /// Sends `signal` (`SIGTERM` by default; `SIGINT`, `SIGKILL`…) unless the child has already been reaped.
    public func signal(_ signal: Int32 = SIGTERM) {
        self.ended.withLock { ended in
            guard ended == nil else { return }
            _ = Glibc.kill(self.identifier, signal)
        }
    }

    /// Waits for `identifier` to end without reaping it (`WNOWAIT`), then reaps it under the lock.
    private static func wait(_ identifier: pid_t, _ ended: Lock<Termination?>) -> Termination {
        while true {
            var information = siginfo_t()
            let result = waitid(P_PID, id_t(identifier), &information, WEXITED | WNOWAIT)
            if result != 0 && errno == EINTR { continue }
            // Either it has ended, or it was reaped first (ECHILD): `reap` records either under the lock.
            if let termination = Self.reap(identifier, ended) { return termination }
        }
    }

    /// Reaps `identifier` if it has ended and records how; the recorded ending once reaped.
    private static func reap(_ identifier: pid_t, _ ended: Lock<Termination?>) -> Termination? {
        ended.withLock { ended in
            if let ended { return ended }
            var status: Int32 = 0
            var result: pid_t
            repeat {
                result = waitpid(identifier, &status, WNOHANG)
            } while result < 0 && errno == EINTR
            if result < 0 && errno == ECHILD {
                // Collected by someone else: no wait can succeed any more, so record it instead of spinning.
                ended = .unknown
                return ended
            }
            guard result == identifier else { return nil }
            ended = Termination(waitStatus: status)
            return ended
        }
    }
}
