/// A socket or reactor operation that failed; names the call and the system's reason.
public struct IOError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure happened.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { self.name }

        /// A system call returned an error other than "interrupted" or "would block".
        public static let syscallFailed = Code("syscallFailed")
        /// The configured host is not a numeric IPv4 or IPv6 address.
        public static let invalidAddress = Code("invalidAddress")
        /// The server was asked to run twice, or to bind after running.
        public static let invalidState = Code("invalidState")
        /// A dial reached the peer's host, but nothing listens on that port (`ECONNREFUSED`).
        public static let connectionRefused = Code("connectionRefused")
        /// A dial did not complete within its connect timeout, or the kernel gave up on it (`ETIMEDOUT`).
        public static let timedOut = Code("timedOut")
        /// No route leads to the peer's address (`ENETUNREACH`, `EHOSTUNREACH`).
        public static let unreachable = Code("unreachable")
        /// The peer reset the connection (`ECONNRESET`, `EPIPE`).
        public static let connectionReset = Code("connectionReset")
        /// More bytes were queued for a connection than its outbound bound allows: the peer reads too slowly.
        public static let outboundOverflow = Code("outboundOverflow")
        /// The operation was abandoned because its dialer was stopped or its reactor is shutting down.
        public static let cancelled = Code("cancelled")
    }

    public let code: Code
    public let message: String
    /// The `errno` behind the failure when a system call reported one (`syscallFailed`, and dial and transfer
    /// failures), otherwise 0.
    public let errorNumber: Int32

    public init(_ code: Code, _ message: String, errorNumber: Int32 = 0) {
        self.code = code
        self.message = message
        self.errorNumber = errorNumber
    }

    public var description: String { self.message }

    /// Whether trying again later may succeed: the peer may come up, the route may return, the reset may have been
    /// a restart. Address mistakes and cancellations are not retryable.
    public var isRetryable: Bool {
        switch self.code {
        case .connectionRefused, .timedOut, .unreachable, .connectionReset, .outboundOverflow, .syscallFailed: true
        default: false
        }
    }
}
