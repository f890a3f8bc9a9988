/// A durability failure (I/O error, damaged log or snapshot, closed log); its message says what to do next.
///
/// Storage errors are fatal for durability: once the write-ahead log reports one, every current and future waiter
/// receives it and the server stops the node rather than acknowledge a write that might not be on disk.
public struct StorageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure happened.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        /// The code's name, for logs.
        public var description: String { self.name }

        /// A system call on a file or directory failed (disk full, permissions, hardware error…).
        public static let io = Code("io")
        /// A WAL segment holds a damaged record before its end, or records with an LSN gap.
        public static let damagedSegment = Code("damagedSegment")
        /// A snapshot file is truncated or fails its checksum.
        public static let damagedSnapshot = Code("damagedSnapshot")
        /// Replay asked for records the log no longer holds (they were truncated away).
        public static let missingRecords = Code("missingRecords")
        /// The log was closed before the record could be made durable.
        public static let closed = Code("closed")
        /// The task waiting for durability was cancelled; the record itself may still become durable.
        public static let cancelled = Code("cancelled")
    }

    /// What kind of failure happened.
    public let code: Code
    /// What went wrong and what the operator can do about it.
    public let message: String
    /// The file or directory involved, when there is one.
    public let path: String?
    /// The byte offset inside `path` where the problem was found, when it is known.
    public let offset: Int?

    /// Makes an error; `message` must say what to do next.
    public init(_ code: Code, _ message: String, path: String? = nil, offset: Int? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.offset = offset
    }

    /// The message alone, ready for a log line or a console.
    public var description: String { self.message }
}
