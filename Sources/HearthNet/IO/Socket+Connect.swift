import CHearthSystem
import Glibc
import HearthSystem

/// Dialing out: a non-blocking `connect` whose outcome the reactor reads from `SO_ERROR` once epoll reports the
/// socket writable, and the errors it can end in, worded so a user knows what to check.
extension Socket {
    /// Creates a non-blocking, close-on-exec TCP socket with `TCP_NODELAY` and starts connecting it to `address`.
    ///
    /// Returns the descriptor while the connection is still being set up (`EINPROGRESS`, or an interrupted call,
    /// which also carries on in the background); the reactor learns the outcome from `pendingError(_:)`.
    ///
    /// - Throws: `IOError` when the socket cannot be created or the kernel refuses the connect at once.
    static func startConnect(to address: SocketAddress) throws(IOError) -> Int32 {
        let socketType = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let descriptor = Int32(try Syscall.call("socket") { Int(Glibc.socket(address.family, socketType, 0)) })
        var one: Int32 = 1
        _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let error = try address.withSocketAddress { socketAddress, length in
            Glibc.connect(descriptor, socketAddress, length) == 0 ? 0 : errno
        }
        switch error {
        case 0, EINPROGRESS, EINTR:
            return descriptor
        default:
            Syscall.close(descriptor)
            throw Self.connectError(to: address.description, error)
        }
    }

    /// The error a non-blocking connect ended with (`SO_ERROR`, which reading also clears): 0 once it connected.
    static func pendingError(_ descriptor: Int32) -> Int32 {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else { return errno }
        return error
    }

    /// The typed error for a connect to `address` that failed with `errorNumber`.
    static func connectError(to address: String, _ errorNumber: Int32) -> IOError {
        let reason = SystemError.describe(errorNumber)
        switch errorNumber {
        case ECONNREFUSED:
            return IOError(
                .connectionRefused,
                "Connecting to \(address) was refused: nothing listens there. "
                    + "Start the peer, or check its address and port.",
                errorNumber: errorNumber
            )
        case ETIMEDOUT:
            return IOError(
                .timedOut,
                "Connecting to \(address) timed out (\(reason)). "
                    + "Check that the peer is running and that no firewall drops its packets.",
                errorNumber: errorNumber
            )
        case ENETUNREACH, EHOSTUNREACH:
            return IOError(
                .unreachable,
                "\(address) is unreachable (\(reason)). Check the address and this node's network routes.",
                errorNumber: errorNumber
            )
        case ECONNRESET, EPIPE:
            return IOError(
                .connectionReset,
                "\(address) reset the connection (\(reason)); the peer may have restarted.",
                errorNumber: errorNumber
            )
        default:
            return IOError(
                .syscallFailed,
                "Connecting to \(address) failed: \(reason). Check the address.",
                errorNumber: errorNumber
            )
        }
    }

    /// The error for a dial that did not complete within `timeout` nanoseconds.
    static func connectTimeout(to address: String, after timeout: UInt64) -> IOError {
        let seconds = Double(timeout) / 1e9
        return IOError(
            .timedOut,
            "Connecting to \(address) did not complete within \(seconds) s. Check that the peer is running and "
                + "reachable (a firewall may be dropping its packets), or raise the connect timeout."
        )
    }
}
