/// Checks UTF-8 one byte at a time, so a text message split across frames (or TCP reads) is validated as it arrives.
///
/// Follows the well-formed byte sequences of Unicode Table 3-7: no overlong forms, no surrogates (U+D800–U+DFFF),
/// nothing above U+10FFFF. Each byte costs O(1) and runs of ASCII are skipped eight bytes at a time; the state is
/// three bytes.
struct UTF8Validator: Sendable, Hashable {
    /// Continuation bytes still owed by the current scalar.
    private var pending: UInt8 = 0
    /// Inclusive range allowed for the next continuation byte (narrower than 80–BF right after E0, ED, F0, F4).
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF

    /// Whether the bytes so far end on a scalar boundary, i.e. a message may end here.
    var isAtBoundary: Bool { self.pending == 0 }

    /// Feeds one byte; returns `false` as soon as the sequence can no longer be valid UTF-8.
    @inline(__always)
    mutating func consume(_ byte: UInt8) -> Bool {
        if self.pending > 0 {
            guard byte >= self.lower && byte <= self.upper else { return false }
            self.pending -= 1
            self.lower = 0x80
            self.upper = 0xBF
            return true
        }
        if byte < 0x80 { return true }
        if byte < 0xC2 { return false }
        if byte < 0xE0 {
            self.pending = 1
            return true
        }
        if byte < 0xF0 {
            self.pending = 2
            if byte == 0xE0 { self.lower = 0xA0 } else if byte == 0xED { self.upper = 0x9F }
            return true
        }
        if byte < 0xF5 {
            self.pending = 3
            if byte == 0xF0 { self.lower = 0x90 } else if byte == 0xF4 { self.upper = 0x8F }
            return true
        }
        return false
    }

    /// Feeds a run of bytes; returns `false` at the first byte that makes the sequence invalid. O(n).
    mutating func consume(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = buffer.baseAddress else { return true }
        let count = buffer.count
        var index = 0
        while index < count {
            if self.pending == 0 {
                while index + 8 <= count {
                    let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                    guard word & 0x8080_8080_8080_8080 == 0 else { break }
                    index += 8
                }
                while index < count && base[index] < 0x80 { index += 1 }
                guard index < count else { return true }
            }
            guard self.consume(base[index]) else { return false }
            index += 1
        }
        return true
    }

    /// Feeds a run of bytes; returns `false` at the first byte that makes the sequence invalid. O(n).
    mutating func consume(_ bytes: some Sequence<UInt8>) -> Bool {
        var validator = self
        let result = bytes.withContiguousStorageIfAvailable { validator.consume($0) }
        if let result {
            self = validator
            return result
        }
        for byte in bytes {
            guard self.consume(byte) else { return false }
        }
        return true
    }
}
