/// Reading a key held in a small string straight from the string's two words.
///
/// A string of at most 15 UTF-8 bytes is "small": its bytes sit in the string value itself, zero-padded, with their
/// count and flags in the top byte of the second word (bit 61 marks a small string, and no other form sets it; bit
/// 62 all-ASCII content). Every key of the star is one (`stars/u123`, `r1a2b3c4d-p7`). Such a key is copied and
/// destroyed without reference counting, two of them are equal exactly when their words are, and two that are ASCII
/// and not integer keys order as their zero-padded bytes read as big-endian numbers (keys hold no NUL, so a shorter
/// key orders before a longer one with the same start, as in UTF-16 order). Compared that way a binary search step
/// is two word comparisons where reading both keys' bytes through `withContiguousStorageIfAvailable` and a loop over
/// them (keys of one map often share a long prefix, such as a run id) was a hundred instructions.
///
/// The layout is the standard library's on 64-bit little-endian platforms, fixed by its ABI; elsewhere no key is
/// read this way and every comparison takes the byte-wise path.
extension Key {
    /// A key's string's two words.
    @inline(__always) private static func words(_ key: borrowing Key) -> (UInt64, UInt64) {
        unsafeBitCast(key.string, to: (UInt64, UInt64).self)
    }

    /// Whether `key`'s string is small (see above).
    @inline(__always) static func isSmall(_ key: borrowing Key) -> Bool {
        #if _pointerBitWidth(_64) && _endian(little)
            Self.words(key).1 & (1 << 61) != 0
        #else
            false
        #endif
    }

    /// Whether two keys are equal when that shows in their strings' words: `true` when the words are the same (the
    /// same small string, or the same storage), `false` when both are small and differ; `nil` otherwise.
    @inline(__always) static func inlineEquality(_ left: borrowing Key, _ right: borrowing Key) -> Bool? {
        #if _pointerBitWidth(_64) && _endian(little)
            let (l, r) = (Self.words(left), Self.words(right))
            if l == r { return true }
            return l.1 & r.1 & (1 << 61) != 0 ? false : nil
        #else
            return nil
        #endif
    }

    /// A small ASCII key that is not an integer key, as the numbers that order it (see above); `nil` for any other.
    struct InlineOrder: Comparable {
        let high: UInt64
        let low: UInt64
        let count: UInt64

        @inline(__always) init?(_ key: borrowing Key) {
            #if _pointerBitWidth(_64) && _endian(little)
                let (first, second) = Key.words(key)
                // Small (bit 61) and ASCII (bit 62).
                guard second >> 61 & 0b11 == 0b11 else { return nil }
                // An integer key starts with a digit or `-`: those keys order by value first (`Key.precedes`).
                let lead = UInt8(truncatingIfNeeded: first)
                guard lead != UInt8(ascii: "-") && !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(lead) else {
                    return nil
                }
                self.high = first.byteSwapped
                self.low = (second & 0x00FF_FFFF_FFFF_FFFF).byteSwapped
                self.count = second >> 56 & 0x0F
            #else
                return nil
            #endif
        }

        @inline(__always) static func < (lhs: Self, rhs: Self) -> Bool {
            (lhs.high, lhs.low, lhs.count) < (rhs.high, rhs.low, rhs.count)
        }
    }
}
