/// Reads `NodeBinary` nodes, and the varints and byte runs framed around them, from memory the caller keeps alive
/// (inside `withUnsafeBytes`). Every read is bounds-checked and throws instead of trapping: the bytes come from a
/// disk or a peer.
public struct NodeBinaryReader {
    public let bytes: UnsafeRawBufferPointer
    /// The next byte to read.
    public private(set) var offset = 0

    /// The deepest nesting a decoded node may have: Firebase allows 32 levels below the root, so anything deeper is
    /// damage (and refusing it keeps hostile input from exhausting the stack).
    static let maximumDepth = 64

    public init(bytes: UnsafeRawBufferPointer, offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    public var isAtEnd: Bool { self.offset == self.bytes.count }

    public mutating func byte() throws(BinaryDecodingError) -> UInt8 {
        guard self.offset < self.bytes.count else { throw BinaryDecodingError(truncatedAt: self.offset) }
        defer { self.offset += 1 }
        return self.bytes[self.offset]
    }

    /// An unsigned LEB128 varint of at most ten bytes.
    public mutating func varint() throws(BinaryDecodingError) -> UInt64 {
        let start = self.offset
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try self.byte()
            guard shift < 64, shift < 63 || byte <= 1 else {
                throw BinaryDecodingError("the varint at byte \(start) overflows 64 bits")
            }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    /// A varint, or nil (reading nothing) when the bytes end inside it: for framing read before all of it has
    /// arrived.
    public mutating func varintIfComplete() throws(BinaryDecodingError) -> UInt64? {
        var last = self.offset
        while last < self.bytes.count, self.bytes[last] >= 0x80 { last += 1 }
        guard last < self.bytes.count else { return nil }
        return try self.varint()
    }

    /// A varint that counts bytes still to come (a length): at most what is left.
    public mutating func length() throws(BinaryDecodingError) -> Int {
        let start = self.offset
        let value = try self.varint()
        guard value <= UInt64(self.bytes.count - self.offset) else { throw BinaryDecodingError(truncatedAt: start) }
        return Int(value)
    }

    /// The next `count` bytes, in place.
    public mutating func bytes(count: Int) throws(BinaryDecodingError) -> UnsafeRawBufferPointer {
        guard count >= 0, self.bytes.count - self.offset >= count else {
            throw BinaryDecodingError(truncatedAt: self.offset)
        }
        defer { self.offset += count }
        return UnsafeRawBufferPointer(rebasing: self.bytes[self.offset..<(self.offset + count)])
    }

    /// The node that starts at the current byte, `depth` levels below the one the caller reads.
    public mutating func node(depth: Int = 0) throws(BinaryDecodingError) -> Node {
        guard depth <= Self.maximumDepth else {
            throw BinaryDecodingError("the node at byte \(self.offset) is nested deeper than \(Self.maximumDepth)")
        }
        let start = self.offset
        let tag = try self.byte()
        let priority = tag & NodeBinary.priorityFlag == 0 ? nil : try self.priority()
        switch tag & ~NodeBinary.priorityFlag {
        case NodeBinary.falseTag: return Node(.bool(false), priority: priority)
        case NodeBinary.trueTag: return Node(.bool(true), priority: priority)
        case NodeBinary.integerTag: return Node(.int(try self.integer()), priority: priority)
        case NodeBinary.doubleTag: return Node(.double(try self.double()), priority: priority)
        case NodeBinary.stringTag:
            guard priority == nil else { return Node(.string(try self.string()), priority: priority) }
            return Node(representation: .string(.make(decoding: try self.bytes(count: try self.length()))))
        case NodeBinary.childrenTag: return Node(children: try self.children(depth: depth), priority: priority)
        default: throw BinaryDecodingError("byte \(start) is \(tag), not a node's tag")
        }
    }

    private mutating func priority() throws(BinaryDecodingError) -> Priority {
        let start = self.offset
        switch try self.byte() {
        case NodeBinary.integerTag: return .int(try self.integer())
        case NodeBinary.doubleTag: return .double(try self.double())
        case NodeBinary.stringTag: return .string(try self.string())
        case let tag: throw BinaryDecodingError("byte \(start) is \(tag), not a priority's tag")
        }
    }

    private mutating func integer() throws(BinaryDecodingError) -> Int64 {
        let zigzag = try self.varint()
        return Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1)
    }

    private mutating func double() throws(BinaryDecodingError) -> Double {
        let start = self.offset
        let raw = try self.bytes(count: 8)
        let value = Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)))
        guard value.isFinite else { throw BinaryDecodingError("the number at byte \(start) is not finite") }
        return value
    }

    private mutating func string() throws(BinaryDecodingError) -> String {
        let count = try self.length()
        return String(decoding: try self.bytes(count: count), as: UTF8.self)
    }

    /// A map's children: each key valid and after the one before it, each node non-empty.
    private mutating func children(depth: Int) throws(BinaryDecodingError) -> ChildMap {
        let start = self.offset
        let count = try self.varint()
        // A child takes at least three bytes (length, one key byte, tag).
        guard count >= 1, count <= UInt64(self.bytes.count - self.offset) / 3 else {
            throw BinaryDecodingError("the child count at byte \(start) is \(count), which the bytes cannot hold")
        }
        var builder = ChildMap.Builder(expectedCount: Int(count))
        var previous: UnsafeRawBufferPointer?
        for _ in 0..<count {
            let keyStart = self.offset
            let keyBytes = try self.bytes(count: try self.length())
            guard Key.isValid(keyBytes.assumingMemoryBound(to: UInt8.self)) else {
                throw BinaryDecodingError("the key at byte \(keyStart) is not a valid key")
            }
            let key = Key(unchecked: String(decoding: keyBytes, as: UTF8.self))
            if let previous, !Self.precedes(previous, keyBytes, key) {
                throw BinaryDecodingError("the key at byte \(keyStart) does not follow the key before it")
            }
            builder.append(key, try self.node(depth: depth + 1))
            previous = keyBytes
        }
        return builder.finish()
    }

    /// Whether the key before (`left`) orders before `key` (whose bytes are `right`).
    private static func precedes(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer, _ key: Key) -> Bool {
        let fast = Key.precedes(left.assumingMemoryBound(to: UInt8.self), right.assumingMemoryBound(to: UInt8.self))
        return fast ?? (Key(unchecked: String(decoding: left, as: UTF8.self)) < key)
    }
}
