/// The name of a member of a JSON object, compared and hashed by its UTF-8 bytes.
///
/// Firebase compares keys as strings of code units, without Unicode normalisation: `{"é": 1, "e\u0301": 2}` is an
/// object with two members. Swift's `String` compares and hashes canonically equivalent strings as equal, so a
/// `[JSONKey: JSONValue]` would merge the two and silently lose one value; a name holds a `Key` (whose `==` and hash
/// are its bytes) instead. Any string is a valid name: a name is not checked against the key rules until it is used
/// as a key of the tree.
public struct JSONKey: Sendable, Hashable, Comparable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The name as a key (unchecked): equality and hashing are its bytes.
    public let key: Key

    /// The name as written.
    public var string: String { self.key.string }

    /// A name spelled `string`.
    public init(_ string: String) {
        self.key = Key(unchecked: string)
    }

    /// The name of a tree's child `key`.
    public init(_ key: Key) {
        self.key = key
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    public init(stringInterpolation: DefaultStringInterpolation) {
        self.init(String(stringInterpolation: stringInterpolation))
    }

    public var description: String { self.key.string }

    /// Equal when the bytes are: `Key`'s comparison, one pass over the bytes (eight at a time) after their counts.
    public static func == (lhs: JSONKey, rhs: JSONKey) -> Bool {
        lhs.key == rhs.key
    }

    /// Whether two strings hold the same UTF-8 bytes (`==` of their keys; wrapping a string in a key builds nothing).
    public static func sameBytes(_ lhs: String, _ rhs: String) -> Bool {
        Key(unchecked: lhs) == Key(unchecked: rhs)
    }

    public func hash(into hasher: inout Hasher) {
        self.key.hash(into: &hasher)
    }

    /// UTF-8 byte order (which is Unicode scalar order): a total order that agrees with `==`, where `String`'s `<`
    /// leaves canonically equivalent names unordered. It is not Firebase's child order (`Key.<`); it orders the
    /// members of a multi-path update, which only pairs keys with their mutations. Native strings are compared over
    /// their contiguous bytes (an update sorts its keys on every write).
    public static func < (lhs: JSONKey, rhs: JSONKey) -> Bool {
        JSONKey.precedes(lhs.string, rhs.string)
    }

    /// Whether `lhs` comes before `rhs` in UTF-8 byte order (`<` of their keys, without building them).
    public static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        let contiguous = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in JSONKey.bytesPrecede(left, right) }
        }
        return (contiguous ?? nil) ?? lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }

    /// Whether `left` comes before `right` in byte order, compared eight bytes at a time (an update's paths share
    /// long prefixes such as `posts/<id>/`).
    @inline(__always) public static func bytesPrecede(
        _ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>
    )
        -> Bool
    {
        let common = min(left.count, right.count)
        if common > 0, let leftBase = left.baseAddress, let rightBase = right.baseAddress {
            let (l, r) = (UnsafeRawPointer(leftBase), UnsafeRawPointer(rightBase))
            var offset = 0
            while offset + 8 <= common {
                let leftWord = UInt64(bigEndian: l.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                let rightWord = UInt64(bigEndian: r.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                if leftWord != rightWord { return leftWord < rightWord }
                offset += 8
            }
            while offset < common {
                if leftBase[offset] != rightBase[offset] { return leftBase[offset] < rightBase[offset] }
                offset += 1
            }
        }
        return left.count < right.count
    }
}
