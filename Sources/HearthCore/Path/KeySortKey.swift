/// What Firebase key order needs of one key, read once, for sorting many keys: its integer value, and its first
/// eight UTF-8 bytes as one big-endian number when they are ASCII.
///
/// Sorting an object's children (a transaction's put of a post with a thousand stars) compared keys through
/// `Key.<`, which reads both keys' bytes and tries both as integers at every comparison: a quarter of a node's CPU
/// under `transaction --hot`. With the values read once, most comparisons of short keys are one integer
/// comparison. Keys hold no NUL, so a shorter key's zero padding orders it before a longer one with the same start.
struct KeySortKey {
    let integer: Int32?
    /// The first eight bytes, zero-padded; meaningful only when `isASCIIPrefix`.
    let prefix: UInt64
    let isASCIIPrefix: Bool
    /// The key's length in UTF-8 bytes (integer keys of one value order by it).
    let count: Int

    init(_ key: Key) {
        self.integer = key.integerValue
        var prefix: UInt64 = 0
        var isASCII = true
        var count = 0
        for byte in key.string.utf8.prefix(8) {
            if byte >= 0x80 { isASCII = false }
            prefix = prefix << 8 | UInt64(byte)
            count += 1
        }
        self.prefix = count == 0 ? 0 : prefix << (8 * UInt64(8 - count))
        self.isASCIIPrefix = isASCII
        self.count = key.string.utf8.count
    }

    /// The positions of `keys` in Firebase key order, equal keys (or keys Firebase orders as equal) in arrival
    /// order. Each key is read once; a comparison touches the keys themselves only when their first eight bytes
    /// tie (or are not ASCII), so sorting copies no strings.
    static func order(_ keys: [Key]) -> [Int] {
        let sortKeys = keys.map(KeySortKey.init)
        return keys.indices.sorted { left, right in
            Self.precedes(sortKeys[left], left, sortKeys[right], right, in: keys)
        }
    }

    /// Key order between `keys[leftIndex]` and `keys[rightIndex]` (read only when the sort keys cannot tell), ties
    /// going to the earlier index: a strict weak order whose sort keeps duplicates in arrival order.
    @inline(__always) private static func precedes(
        _ left: KeySortKey, _ leftIndex: Int, _ right: KeySortKey, _ rightIndex: Int, in keys: [Key]
    ) -> Bool {
        switch (left.integer, right.integer) {
        case let (leftValue?, rightValue?):
            return Key.integerOrder(leftValue, count: left.count, rightValue, count: right.count)
                ?? (leftIndex < rightIndex)
        case (.some, .none):
            return true
        case (.none, .some):
            return false
        case (.none, .none):
            if left.isASCIIPrefix, right.isASCIIPrefix, left.prefix != right.prefix {
                return left.prefix < right.prefix
            }
            let (leftKey, rightKey) = (keys[leftIndex], keys[rightIndex])
            if leftKey == rightKey { return leftIndex < rightIndex }
            return Key.utf16Precedes(leftKey.string, rightKey.string)
        }
    }
}
