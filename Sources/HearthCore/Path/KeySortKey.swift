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
    }

    /// Key order between `left` (arrived `left.index`th) and `right`, ties — equal keys, or keys Firebase orders as
    /// equal — going to the earlier arrival: a strict weak order whose sort keeps duplicates in arrival order.
    static func precedes(
        _ left: (key: Key, sortKey: KeySortKey, index: Int), _ right: (key: Key, sortKey: KeySortKey, index: Int)
    ) -> Bool {
        switch (left.sortKey.integer, right.sortKey.integer) {
        case let (leftValue?, rightValue?):
            return Key.integerOrder(
                leftValue, count: left.key.string.utf8.count, rightValue, count: right.key.string.utf8.count)
                ?? (left.index < right.index)
        case (.some, .none):
            return true
        case (.none, .some):
            return false
        case (.none, .none):
            if left.sortKey.isASCIIPrefix, right.sortKey.isASCIIPrefix, left.sortKey.prefix != right.sortKey.prefix {
                return left.sortKey.prefix < right.sortKey.prefix
            }
            if left.key == right.key { return left.index < right.index }
            return Key.utf16Precedes(left.key.string, right.key.string)
        }
    }
}
