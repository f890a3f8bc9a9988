/// One segment of a database path: a child name, ordered the way Firebase orders children.
///
/// Firebase sorts "integer keys" (an optional `-` and up to 10 digits that fit in a signed 32-bit integer) first,
/// numerically, with ties broken by the shorter string; every other key follows, compared by UTF-16 code units.
/// A key is its string alone (16 bytes: every child of every map holds one, so a key's size is paid per child);
/// the integer value is read from the string when compared, which for most keys ends at the first byte.
public struct Key: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The key as written.
    public let string: String

    /// The key's value when it is a Firebase integer key, else `nil`.
    public var integerValue: Int32? { Key.parseIntegerKey(self.string) }

    /// Creates a key after checking Firebase's key rules.
    /// - Throws: `PathError` when the key is empty, longer than 768 UTF-8 bytes, or contains `. $ # [ ] /` or an
    ///   ASCII control character.
    public init(validating string: String) throws(PathError) {
        try Key.validate(string)
        self.init(unchecked: string)
    }

    /// Creates a key the caller has already validated (or a sentinel such as `[MIN_NAME]`).
    public init(unchecked string: String) {
        self.string = string
    }

    public var description: String { self.string }

    /// Keys are equal when their UTF-8 bytes are: Firebase treats canonically equivalent but differently encoded
    /// strings (`"é"` and `"e\u{301}"`) as different keys, unlike Swift's `String ==`.
    public static func == (lhs: Key, rhs: Key) -> Bool {
        if let equal = Key.inlineEquality(lhs, rhs) { return equal }
        let left = lhs.string.utf8
        let right = rhs.string.utf8
        guard left.count == right.count else { return false }
        let contiguous = left.withContiguousStorageIfAvailable { l in
            right.withContiguousStorageIfAvailable { r in Key.bytesEqual(l, r) }
        }
        return (contiguous ?? nil) ?? left.elementsEqual(right)
    }

    /// Whether two buffers hold the same bytes, compared eight at a time (a generic `elementsEqual` goes byte by
    /// byte through an iterator, and keys are compared on every tree lookup).
    @inline(__always) public static func bytesEqual(
        _ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        guard left.count == right.count else { return false }
        guard let leftBase = left.baseAddress, let rightBase = right.baseAddress else { return true }
        let (l, r) = (UnsafeRawPointer(leftBase), UnsafeRawPointer(rightBase))
        var offset = 0
        while offset + 8 <= left.count {
            if l.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                != r.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            {
                return false
            }
            offset += 8
        }
        while offset < left.count {
            if leftBase[offset] != rightBase[offset] { return false }
            offset += 1
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        let hashed: Void? = self.string.utf8.withContiguousStorageIfAvailable {
            hasher.combine(bytes: UnsafeRawBufferPointer($0))
        }
        if hashed == nil {
            Array(self.string.utf8).withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    /// The largest number of UTF-8 bytes Firebase accepts in one key.
    public static let maximumByteLength = 768

    /// Checks Firebase's key rules without building a key.
    public static func validate(_ string: String) throws(PathError) {
        if string.isEmpty {
            throw PathError(.invalidKey, "Invalid key \"\": keys must be non-empty strings.")
        }
        var length = 0
        for byte in string.utf8 {
            length += 1
            if Self.isForbidden(byte) {
                throw PathError(
                    .invalidKey,
                    "Invalid key \(PathError.quoted(string)): keys can't contain \".\", \"#\", \"$\", \"/\", \"[\", \"]\" or ASCII control characters."
                )
            }
        }
        if length > maximumByteLength {
            throw PathError(
                .keyTooLong,
                "Invalid key of \(length) bytes: keys can be at most \(maximumByteLength) bytes of UTF-8."
            )
        }
    }

    /// Whether `bytes` (UTF-8) follow Firebase's key rules: what `validate` checks, without building a string. A
    /// plain loop: every path of every write is checked here, and a generic `contains(where:)` walks an iterator.
    public static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !bytes.isEmpty && bytes.count <= Self.maximumByteLength else { return false }
        var index = 0
        while index < bytes.count {
            if Self.isForbidden(bytes[index]) { return false }
            index += 1
        }
        return true
    }

    /// How many `/` the UTF-8 `bytes` of a path hold when every other byte may sit in a key; nil when one may not.
    /// Then each non-empty segment of the path is a valid key unless it is too long (a path's text split on `/`,
    /// checked in one pass rather than key by key; a `.priority` segment is refused here with every `.`).
    public static func separators(inKeyBytes bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var separators = 0
        var index = 0
        // Eight bytes at a time (a star's paths are ~35 bytes each), the rest one by one.
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= bytes.count {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                guard Self.forbiddenBytes(in: word) == 0 else { return nil }
                separators += ByteWords.matches(UInt8(ascii: "/"), in: word).nonzeroBitCount
                index += 8
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "/") {
                separators += 1
            } else if Self.isForbidden(byte) {
                return nil
            }
            index += 1
        }
        return separators
    }

    /// The top bit of each byte of `word` that no key may hold other than `/` (`isForbidden`): `. $ # [ ]`, DEL and
    /// the ASCII controls (below 0x20: top bit clear, and clear still with 0x60 added to the low seven bits).
    @inline(__always) private static func forbiddenBytes(in word: UInt64) -> UInt64 {
        let controls = ~(((word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x6060_6060_6060_6060) | word) & 0x8080_8080_8080_8080
        return controls | ByteWords.matches(UInt8(ascii: "."), in: word)
            | ByteWords.matches(UInt8(ascii: "$"), in: word)
            | ByteWords.matches(UInt8(ascii: "#"), in: word) | ByteWords.matches(UInt8(ascii: "["), in: word)
            | ByteWords.matches(UInt8(ascii: "]"), in: word) | ByteWords.matches(0x7F, in: word)
    }

    /// A byte no key may hold: `. $ # [ ] /` and ASCII control characters.
    @inline(__always) private static func isForbidden(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "."), UInt8(ascii: "$"), UInt8(ascii: "#"), UInt8(ascii: "["), UInt8(ascii: "]"),
            UInt8(ascii: "/"), 0x00...0x1F, 0x7F:
            true
        default:
            false
        }
    }

    /// Firebase's integer-key rule: optional `-`, 1 to 10 digits (leading zeros allowed), within Int32's range.
    static func parseIntegerKey(_ string: String) -> Int32? {
        string.utf8.withContiguousStorageIfAvailable(Self.integerValue(of:))
            ?? Array(string.utf8).withUnsafeBufferPointer(Self.integerValue(of:))
    }

    /// The integer-key rule over a key's UTF-8 bytes; most keys are refused at their first byte.
    @inline(__always) static func integerValue(of bytes: UnsafeBufferPointer<UInt8>) -> Int32? {
        guard let first = bytes.first else { return nil }
        var index = first == UInt8(ascii: "-") ? 1 : 0
        guard (1...10).contains(bytes.count - index) else { return nil }
        var value: Int64 = 0
        while index < bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value * 10 + Int64(digit)
            index += 1
        }
        return Int32(exactly: first == UInt8(ascii: "-") ? -value : value)
    }

    /// Firebase child order: integer keys first (numerically, shorter string on ties), then UTF-16 order.
    public static func < (lhs: Key, rhs: Key) -> Bool {
        if let left = InlineOrder(lhs), let right = InlineOrder(rhs) { return left < right }
        let contiguous = lhs.string.utf8.withContiguousStorageIfAvailable { left in
            rhs.string.utf8.withContiguousStorageIfAvailable { right in Key.precedes(left, right) }
        }
        if let precedes = (contiguous ?? nil) ?? nil { return precedes }
        switch (lhs.integerValue, rhs.integerValue) {
        case let (left?, right?):
            return Key.integerOrder(left, count: lhs.string.utf8.count, right, count: rhs.string.utf8.count) ?? false
        case (.some, .none):
            return true
        case (.none, .some):
            return false
        case (.none, .none):
            return Key.utf16Precedes(lhs.string, rhs.string)
        }
    }

    /// Firebase's order of two integer keys, given their values and their lengths in bytes: by value, then the
    /// shorter text first (`"1"` before `"01"`); `nil` when neither comes first.
    @inline(__always) static func integerOrder(
        _ left: Int32, count leftCount: Int, _ right: Int32, count rightCount: Int
    ) -> Bool? {
        if left != right { return left < right }
        return leftCount != rightCount ? leftCount < rightCount : nil
    }

    /// Key order over two keys' UTF-8 bytes, or `nil` when they first differ outside ASCII (where UTF-8 and UTF-16
    /// orders can disagree).
    @inline(__always) static func precedes(
        _ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>
    ) -> Bool? {
        Key.precedes(left, Key.integerValue(of: left), right, Key.integerValue(of: right))
    }

    /// `precedes(_:_:)` with each key's integer value (`integerValue(of:)`) read already.
    @inline(__always) static func precedes(
        _ left: UnsafeBufferPointer<UInt8>, _ leftInteger: Int32?, _ right: UnsafeBufferPointer<UInt8>,
        _ rightInteger: Int32?
    ) -> Bool? {
        switch (leftInteger, rightInteger) {
        case let (leftValue?, rightValue?):
            return Key.integerOrder(leftValue, count: left.count, rightValue, count: right.count) ?? false
        case (.some, .none):
            return true
        case (.none, .some):
            return false
        case (.none, .none):
            for (l, r) in zip(left, right) where l != r {
                return l < 0x80 && r < 0x80 ? l < r : nil
            }
            return left.count < right.count
        }
    }

    /// A key compared with many others (a binary search's): its bytes and integer value are read once, so each
    /// comparison reads only the other key. Valid only inside `withProbe`. It holds no copy of the key (whose
    /// string a copy retains, once per search: a no-op for a small string, but a call to the runtime every time):
    /// the rare comparison that needs the key itself (`<`, for another key whose bytes are not contiguous) is handed
    /// it by the search, which holds it.
    struct Probe {
        let bytes: UnsafeBufferPointer<UInt8>
        let integer: Int32?
        /// The key's order as a small ASCII key (`Key+Inline.swift`), when it is one.
        let inline: InlineOrder?

        init(key: borrowing Key, bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            self.integer = Key.integerValue(of: bytes)
            self.inline = InlineOrder(key)
        }

        /// Whether `other` comes before the probe (`other < key`), `key` being the probe's key.
        @inline(__always) func follows(_ other: Key, probing key: Key) -> Bool {
            if let inline = self.inline, let order = InlineOrder(other) { return order < inline }
            let fast = other.string.utf8.withContiguousStorageIfAvailable { left in
                Key.precedes(left, Key.integerValue(of: left), self.bytes, self.integer)
            }
            return (fast ?? nil) ?? (other < key)
        }

        /// Whether the probe comes before `other` (`key < other`), `key` being the probe's key.
        @inline(__always) func precedes(_ other: Key, probing key: Key) -> Bool {
            if let inline = self.inline, let order = InlineOrder(other) { return inline < order }
            let fast = other.string.utf8.withContiguousStorageIfAvailable { right in
                Key.precedes(self.bytes, self.integer, right, Key.integerValue(of: right))
            }
            return (fast ?? nil) ?? (key < other)
        }
    }

    /// Calls `body` with this key as a `Probe`; with nil when its bytes are not contiguous (compare with `<`).
    @inline(__always) func withProbe<Result>(_ body: (Probe?) -> Result) -> Result {
        let result = self.string.utf8.withContiguousStorageIfAvailable { bytes in
            body(Probe(key: self, bytes: bytes))
        }
        return result ?? body(nil)
    }

    /// Compares by UTF-16 code units as JavaScript, Java and Objective-C do; ASCII takes a byte-wise fast path.
    public static func utf16Precedes(_ lhs: String, _ rhs: String) -> Bool {
        let contiguous = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right -> Bool? in
                for (l, r) in zip(left, right) where l != r {
                    return l < 0x80 && r < 0x80 ? l < r : nil
                }
                return left.count < right.count
            }
        }
        if let precedes = (contiguous ?? nil) ?? nil { return precedes }
        var left = lhs.utf8.makeIterator()
        var right = rhs.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case let (l?, r?):
                if l == r { continue }
                if l < 0x80 && r < 0x80 { return l < r }
                return lhs.utf16.lexicographicallyPrecedes(rhs.utf16)
            case (nil, .some):
                return true
            case (_, nil):
                return false
            }
        }
    }

    /// The smallest possible name, `[MIN_NAME]`, used by query bounds.
    public static let minName = Key(unchecked: "[MIN_NAME]")
    /// The largest possible name, `[MAX_NAME]` (Android spells it `[MAX_KEY]`), used by query bounds.
    public static let maxName = Key(unchecked: "[MAX_NAME]")
}
