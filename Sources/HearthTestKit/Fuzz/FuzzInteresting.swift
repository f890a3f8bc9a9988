/// The values that break integer and float handling: limits, off-by-ones past them, and non-finite and huge
/// numbers, as the fuzzer writes them into text and binary inputs.
enum FuzzInteresting {
    /// Byte values that sit on edges (signs, ASCII controls, UTF-8 lead bytes).
    static let bytes: [UInt8] = [
        0x00, 0x01, 0x09, 0x0A, 0x0D, 0x20, 0x22, 0x25, 0x2B, 0x2D, 0x2E, 0x30, 0x39, 0x5C,
        0x7E, 0x7F, 0x80, 0xBF, 0xC0, 0xC3, 0xE2, 0xEF, 0xF0, 0xF4, 0xF5, 0xFE, 0xFF,
    ]

    /// Numbers as a client would spell them in text.
    static let texts: [String] = [
        "0", "-0", "1", "-1", "00", "007", "+1", "127", "128", "255", "256", "32767", "32768", "65535", "65536",
        "2147483647", "2147483648", "-2147483649", "4294967295", "4294967296", "9007199254740991", "9007199254740993",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        "18446744073709551615", "18446744073709551616", "1e308", "-1e308", "1e309", "1.7976931348623157e308",
        "4.9e-324", "1e-400", "0.1", "-0.0", "1e", "1e+", ".5", "5.", "NaN", "nan", "Infinity", "-Infinity", "inf",
        "0x7fffffff", "0x10", "1_000", String(repeating: "9", count: 400),
        "0." + String(repeating: "0", count: 400) + "1",
        "1e" + String(repeating: "9", count: 30),
    ]

    /// Integer edges for binary fields.
    static let integers: [UInt64] = [
        0, 1, 0x7F, 0x80, 0xFF, 0x100, 0x7FFF, 0x8000, 0xFFFF, 0x1_0000, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF,
        0x1_0000_0000, 0x20_0000_0000_0001, 0x7FFF_FFFF_FFFF_FFFF, 0x8000_0000_0000_0000, 0xFFFF_FFFF_FFFF_FFFE,
        0xFFFF_FFFF_FFFF_FFFF, 0x7FF0_0000_0000_0000, 0x7FF8_0000_0000_0000,
    ]

    static func numberText(using random: inout SeededRandom) -> [UInt8] {
        Array(Self.texts[Int.random(in: 0..<Self.texts.count, using: &random)].utf8)
    }

    /// An edge integer, or its negation, in 1, 2, 4 or 8 bytes, little- or big-endian.
    static func numberBinary(using random: inout SeededRandom) -> [UInt8] {
        var value = Self.integers[Int.random(in: 0..<Self.integers.count, using: &random)]
        if Bool.random(using: &random) { value = 0 &- value }
        let width = [1, 2, 4, 8][Int.random(in: 0..<4, using: &random)]
        let littleEndian = (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
        return Bool.random(using: &random) ? littleEndian : littleEndian.reversed()
    }
}
