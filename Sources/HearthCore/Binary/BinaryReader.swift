/// Reads the fields `BinaryWriter` writes, throwing instead of trapping on short or malformed input (bytes from a
/// disk or a peer are never trusted).
public struct BinaryReader: Sendable {
    public let bytes: [UInt8]
    /// The next byte to read.
    public private(set) var offset = 0

    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Whether every byte has been read.
    public var isAtEnd: Bool { self.offset == self.bytes.count }

    /// Reads a record's leading format version and checks it is `expected`.
    /// - Throws: `BinaryDecodingError` saying that `what`'s format is unknown, and which one this build reads.
    public mutating func readFormatVersion(_ expected: UInt8, of what: String) throws(BinaryDecodingError) {
        let version = try self.readUInt8()
        guard version == expected else {
            throw BinaryDecodingError("\(what) format \(version) is unknown (expected \(expected))")
        }
    }

    public mutating func readUInt8() throws(BinaryDecodingError) -> UInt8 {
        guard self.offset < self.bytes.count else { throw BinaryDecodingError(truncatedAt: self.offset) }
        defer { self.offset += 1 }
        return self.bytes[self.offset]
    }

    public mutating func readUInt16() throws(BinaryDecodingError) -> UInt16 { try self.readInteger() }
    public mutating func readUInt32() throws(BinaryDecodingError) -> UInt32 { try self.readInteger() }
    public mutating func readUInt64() throws(BinaryDecodingError) -> UInt64 { try self.readInteger() }

    /// A boolean written as one byte, 0 or 1.
    public mutating func readBool() throws(BinaryDecodingError) -> Bool {
        switch try self.readUInt8() {
        case 0: return false
        case 1: return true
        case let other: throw BinaryDecodingError("byte \(self.offset - 1) is \(other), not a boolean (0 or 1)")
        }
    }

    /// `count` bytes, for a count read as a `u64`: one past `Int.max` cannot be there, so it is cut short too.
    public mutating func readBytes(count: UInt64) throws(BinaryDecodingError) -> [UInt8] {
        guard let exact = Int(exactly: count) else { throw BinaryDecodingError(truncatedAt: self.offset) }
        return try self.readBytes(count: exact)
    }

    public mutating func readBytes(count: Int) throws(BinaryDecodingError) -> [UInt8] {
        guard count >= 0, self.bytes.count - self.offset >= count else {
            throw BinaryDecodingError(truncatedAt: self.offset)
        }
        defer { self.offset += count }
        return Array(self.bytes[self.offset..<(self.offset + count)])
    }

    public mutating func readString(count: Int) throws(BinaryDecodingError) -> String {
        String(decoding: try self.readBytes(count: count), as: UTF8.self)
    }

    /// A string written by `BinaryWriter.appendString`.
    public mutating func readString() throws(BinaryDecodingError) -> String {
        try self.readString(count: Int(try self.readUInt16()))
    }

    /// A byte string written by `BinaryWriter.appendBytes`.
    public mutating func readLengthPrefixedBytes() throws(BinaryDecodingError) -> [UInt8] {
        try self.readBytes(count: Int(try self.readUInt32()))
    }

    private mutating func readInteger<T: FixedWidthInteger>() throws(BinaryDecodingError) -> T {
        let size = MemoryLayout<T>.size
        guard self.bytes.count - self.offset >= size else { throw BinaryDecodingError(truncatedAt: self.offset) }
        var value: T = 0
        for index in 0..<size {
            value |= T(self.bytes[self.offset + index]) << (8 * index)
        }
        self.offset += size
        return value
    }
}

/// Bytes that do not hold what the reader expects: cut short, or a field out of range.
public struct BinaryDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong and where.
    public let detail: String

    public init(_ detail: String) {
        self.detail = detail
    }

    init(truncatedAt offset: Int) {
        self.detail = "truncated at byte \(offset)"
    }

    public var description: String { self.detail }
}
