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
    }

    public let code: Code
    public let message: String
    /// The `errno` value for `syscallFailed`, otherwise 0.
    public let errorNumber: Int32

    public init(_ code: Code, _ message: String, errorNumber: Int32 = 0) {
        self.code = code
        self.message = message
        self.errorNumber = errorNumber
    }

    public var description: String { self.message }
}
