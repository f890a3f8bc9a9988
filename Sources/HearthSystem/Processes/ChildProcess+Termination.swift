extension ChildProcess {
    /// How a child process ended.
    public enum Termination: Sendable, Hashable, CustomStringConvertible {
        /// It exited with this status (0 to 255).
        case exited(Int32)
        /// A signal ended it (`SIGKILL`, `SIGTERM`…).
        case signaled(Int32)
        /// It is gone, but something else in this process collected it first (`waitpid` answered `ECHILD`: a
        /// `SIGCHLD` set to ignore, or a `waitpid(-1)` elsewhere), so how it ended is unknown. Recorded rather than
        /// waited for, since no wait can succeed any more.
        case unknown

        /// From `waitpid`'s status word: the low seven bits are the ending signal, or 0 for an exit whose status is
        /// the next eight bits (glibc's `WIFEXITED`, `WEXITSTATUS` and `WTERMSIG`, macros Swift does not import).
        init(waitStatus status: Int32) {
            let signal = status & 0x7f
            self = signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
        }

        /// The exit status, or the signal's number: what Foundation's `terminationStatus` gave; -1 when unknown.
        public var status: Int32 {
            switch self {
            case .exited(let status), .signaled(let status): status
            case .unknown: -1
            }
        }

        public var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .signaled(let signal): "ended by signal \(signal)"
            case .unknown: "ended, collected elsewhere (how is unknown)"
            }
        }
    }
}
