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

    /// UTF-8 byte order (which is Unicode scalar order): a total order that agrees with `==`, where `String`'s `<`
    /// leaves canonically equivalent names unordered. It is not Firebase's child order (`Key.<`); it orders the
    /// members of a multi-path update, which only pairs keys with their mutations. Native strings are compared over
    /// their contiguous bytes (an update sorts its keys on every write).
    public static func < (lhs: JSONKey, rhs: JSONKey) -> Bool {
        let contiguous = lhs.string.utf8.withContiguousStorageIfAvailable { left in
            rhs.string.utf8.withContiguousStorageIfAvailable { right -> Bool in
                for (l, r) in zip(left, right) where l != r { return l < r }
                return left.count < right.count
            }
        }
        return (contiguous ?? nil) ?? lhs.string.utf8.lexicographicallyPrecedes(rhs.string.utf8)
    }
}
