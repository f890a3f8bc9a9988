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
            var words: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(bytes)) }
            // A byte with its top bit set is not ASCII.
            guard (words.0 | words.1) & 0x8080_8080_8080_8080 == 0 else { return nil }
            words.1 |= (0xE0 | UInt64(bytes.count)) << 56
            return Key(unchecked: unsafeBitCast(words, to: String.self))
        #else
            return nil
        #endif
    }
}
