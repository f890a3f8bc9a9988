import HearthCore

/// Making a key of a few ASCII bytes as the small string that holds them, without the standard library's UTF-8 check.
///
/// A string of at most 15 UTF-8 bytes is "small" (`Key+Inline.swift` in HearthCore reads keys that way): its bytes
/// sit in the string value itself, zero-padded, with their count in the low half of the second word's top byte and,
/// above it, the flags: small (bit 61), all-ASCII (bit 62) and immortal (bit 63, no reference counting). A key made
/// here has exactly the words `String(decoding:as:)` gives the same bytes, so the two are the same value (and equal
/// by `Key.inlineEquality`'s word comparison). An update's member key splits into a few such keys (every key of the
/// star is one), and making each through `String(decoding:as:)` checked its UTF-8 again, byte by byte, after the
/// path's one pass (`Key.separators(inKeyBytes:)`) had read it.
///
/// The layout is the standard library's on 64-bit little-endian platforms, fixed by its ABI; elsewhere no key is made
/// this way.
extension Key {
    /// The key whose text is `bytes` when they are at most 15 ASCII bytes; nil for any other bytes.
    @inline(__always) static func smallASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Key? {
        #if _pointerBitWidth(_64) && _endian(little)
            guard bytes.count <= 15 else { return nil }
            // The words are read from the bytes with loads that stay inside them, overlapping where the count is not
            // a power of two (the same byte read twice is the same value, so or-ing them changes nothing). Copied into
            // memory and read back as words (`copyMemory`), the bytes went through a call of `memcpy` whose byte
            // stores the word loads then waited on: a third of a star's path parsing.
            let count = bytes.count
            var words: (UInt64, UInt64) = (0, 0)
            if let base = bytes.baseAddress {
                let raw = UnsafeRawPointer(base)
                switch count {
                case 0:
                    break
                case 8...:
                    words.0 = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
                    // The last eight bytes, shifted down so the ninth byte lands in the lowest place.
                    let last = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
                    words.1 = count == 8 ? 0 : last >> (UInt64(16 - count) &* 8)
                case 4...:
                    let first = UInt64(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
                    let last = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
                    words.0 = first | UInt64(last) << (UInt64(count - 4) &* 8)
                default:
                    // One to three bytes: the first, the middle and the last (some of them the same byte).
                    words.0 =
                        UInt64(base[0]) | UInt64(base[count / 2]) << (UInt64(count / 2) &* 8)
                        | UInt64(base[count - 1]) << (UInt64(count - 1) &* 8)
                }
            }
            // A byte with its top bit set is not ASCII.
            guard (words.0 | words.1) & 0x8080_8080_8080_8080 == 0 else { return nil }
            words.1 |= (0xE0 | UInt64(bytes.count)) << 56
            return Key(unchecked: unsafeBitCast(words, to: String.self))
        #else
            return nil
        #endif
    }
}
