/// A compact binary form of a node, for snapshots: reading it back costs the tree's own allocations and little
/// more, where JSON adds tokenizing, unescaping and number parsing (a 1 GB node's restart was bound by parsing the
/// JSON of its snapshot).
///
/// A node is a tag byte, then its payload:
/// ```
/// 0 / 1         false / true
/// 2 <varint>    an integer, zigzag-encoded
/// 3 <8 bytes>   a double's IEEE 754 bits, little-endian
/// 4 <varint n>  a string of n UTF-8 bytes
/// 5 <varint n>  n ≥ 1 children in ascending key order, each <varint length><key's UTF-8><node>
/// ```
/// Varints are unsigned LEB128. A tag with bit 0x80 set carries a priority, written as a leaf (tag 2, 3 or 4)
/// between the tag and the payload. The empty node has no form: it is never stored, and no map holds one.
public enum NodeBinary {
    static let falseTag: UInt8 = 0
    static let trueTag: UInt8 = 1
    static let integerTag: UInt8 = 2
    static let doubleTag: UInt8 = 3
    static let stringTag: UInt8 = 4
    static let childrenTag: UInt8 = 5
    static let priorityFlag: UInt8 = 0x80

    /// Appends `node`'s binary form to `bytes`.
    /// - Precondition: `node` is not empty.
    public static func append(_ node: Node, to bytes: inout [UInt8]) {
        switch node.representation {
        case .empty:
            preconditionFailure("NodeBinary.append was given the empty node, which has no binary form")
        case .integer(let value):
            Self.appendLeaf(.int(Int64(value)), priority: nil, to: &bytes)
        case .boolean(let flag):
            Self.appendLeaf(.bool(flag), priority: nil, to: &bytes)
        case .double(let box):
            Self.appendLeaf(.double(box.value), priority: nil, to: &bytes)
        case .largeInteger(let box):
            Self.appendLeaf(.int(box.value), priority: nil, to: &bytes)
        case .string(let box):
            bytes.append(Self.stringTag)
            box.withUTF8 { text in
                Self.appendVarint(UInt64(text.count), to: &bytes)
                bytes.append(contentsOf: text)
            }
        case .stored(let storage):
            switch storage.content {
            case .leaf(let box):
                Self.appendLeaf(box.value, priority: storage.priority, to: &bytes)
            case .children(let children):
                Self.appendTag(Self.childrenTag, priority: storage.priority, to: &bytes)
                Self.appendVarint(UInt64(children.count), to: &bytes)
                for (key, child) in children {
                    Self.appendVarint(UInt64(key.string.utf8.count), to: &bytes)
                    bytes.append(contentsOf: key.string.utf8)
                    Self.append(child, to: &bytes)
                }
            }
        }
    }

    /// Decodes the node that fills `bytes` exactly.
    /// - Throws: `BinaryDecodingError` naming the offset of the first byte that is not a node's (truncation, an
    ///   unknown tag, an invalid or out-of-order key, a number that is not finite, nesting past Firebase's depth).
    public static func decode(_ bytes: UnsafeRawBufferPointer) throws(BinaryDecodingError) -> Node {
        var reader = NodeBinaryReader(bytes: bytes)
        let node = try reader.node(depth: 0)
        guard reader.offset == bytes.count else {
            throw BinaryDecodingError("a node ends at byte \(reader.offset) of \(bytes.count)")
        }
        return node
    }

    private static func appendTag(_ tag: UInt8, priority: Priority?, to bytes: inout [UInt8]) {
        guard let priority else {
            bytes.append(tag)
            return
        }
        bytes.append(tag | Self.priorityFlag)
        Self.appendLeaf(priority.leafValue, priority: nil, to: &bytes)
    }

    private static func appendLeaf(_ value: LeafValue, priority: Priority?, to bytes: inout [UInt8]) {
        switch value {
        case .bool(let flag):
            Self.appendTag(flag ? Self.trueTag : Self.falseTag, priority: priority, to: &bytes)
        case .int(let number):
            Self.appendTag(Self.integerTag, priority: priority, to: &bytes)
            Self.appendVarint(UInt64(bitPattern: (number << 1) ^ (number >> 63)), to: &bytes)
        case .double(let number):
            Self.appendTag(Self.doubleTag, priority: priority, to: &bytes)
            withUnsafeBytes(of: number.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        case .string(let text):
            Self.appendTag(Self.stringTag, priority: priority, to: &bytes)
            Self.appendVarint(UInt64(text.utf8.count), to: &bytes)
            bytes.append(contentsOf: text.utf8)
        }
    }

    /// An unsigned LEB128 varint: seven bits a byte, low bits first.
    public static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }
}
