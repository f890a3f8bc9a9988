/// Byte scans eight bytes at a time: a buffer's bytes read as 64-bit words, and the bytes of a word equal to one
/// wanted found with a few arithmetic steps instead of eight comparisons. Paths (`/`), HTTP heads (CR, LF) and keys'
/// forbidden bytes are scanned this way.
public enum ByteWords {
    /// The top bit of each byte of `word` that is `byte`, and no other bit: exact, since no sum carries from one byte
    /// into the next.
    @inlinable @inline(__always)
    public static func matches(_ byte: UInt8, in word: UInt64) -> UInt64 {
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let difference = word ^ (UInt64(byte) &* 0x0101_0101_0101_0101)
        return ~(((difference & low) &+ low) | difference | low)
    }

    /// The eight bytes at `offset` of `base` as one word, the first byte in the lowest bits (so a match's
    /// `trailingZeroBitCount / 8` is its distance from `offset`).
    @inlinable @inline(__always)
    public static func word(_ base: UnsafeRawPointer, at offset: Int) -> UInt64 {
        UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// The index of the first `byte` in `bytes` at or after `start`; `bytes.count` when there is none.
    /// - Complexity: O(n) in the bytes scanned.
    @inlinable
    public static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= bytes.count {
                let found = Self.matches(byte, in: Self.word(raw, at: index))
                if found != 0 { return index + found.trailingZeroBitCount / 8 }
                index += 8
            }
        }
        while index < bytes.count && bytes[index] != byte { index += 1 }
        return index
    }

    /// How many of `bytes` are `byte`.
    /// - Complexity: O(n).
    @inlinable
    public static func count(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        var index = 0
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= bytes.count {
                count += Self.matches(byte, in: Self.word(raw, at: index)).nonzeroBitCount
                index += 8
            }
        }
        while index < bytes.count {
            if bytes[index] == byte { count += 1 }
            index += 1
        }
        return count
    }
}
