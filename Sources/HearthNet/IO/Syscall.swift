import Glibc
import HearthSystem

/// The one place HearthNet calls into the kernel: retries `EINTR`, turns `EAGAIN` into `.wouldBlock`, traps on
/// errnos that can only mean a bug in this module, and throws everything else as an `IOError` naming the call.
enum Syscall {
    /// The outcome of a non-blocking call that did not fail.
    enum Result: Equatable {
        case done(Int)
        case wouldBlock
    }

    /// Runs `body` (a C call returning -1 and setting errno on failure).
    static func run(_ name: StaticString, _ body: () -> Int) throws(IOError) -> Result {
        while true {
            let result = body()
            if result >= 0 { return .done(result) }
            let error = errno
            switch error {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                return .wouldBlock
            case EBADF, EFAULT:
                preconditionFailure(
                    "\(name) failed with \(SystemError.describe(error)): a file descriptor or buffer bug")
            default:
                throw Self.error(name, error)
            }
        }
    }

    /// Like `run`, for calls that never legitimately block.
    @discardableResult
    static func call(_ name: StaticString, _ body: () -> Int) throws(IOError) -> Int {
        switch try Self.run(name, body) {
        case .done(let value): return value
        case .wouldBlock: throw Self.error(name, EAGAIN)
        }
    }

    /// Closes `descriptor`, ignoring errors: Linux releases the descriptor even when `close` reports one.
    static func close(_ descriptor: Int32) {
        _ = Glibc.close(descriptor)
    }

    static func error(_ name: StaticString, _ error: Int32) -> IOError {
        IOError(.syscallFailed, "\(name) failed: \(SystemError.describe(error))", errorNumber: error)
    }
}
