/// Base64 with the standard alphabet and `=` padding (RFC 4648 §4), for node hashes and WebSocket handshakes.
public enum Base64 {
    /// The 64 digits in value order.
    private static let alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8
    )

    /// Each ASCII byte's digit value, or 0xFF for bytes outside the alphabet.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, digit) in alphabet.enumerated() {
            table[Int(digit)] = UInt8(value)
        }
        return table
    }()

    /// `bytes` as padded base64 text. O(n).
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        if let text = bytes.withContiguousStorageIfAvailable(Self.encode(contiguous:)) { return text }
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next()
            let third = iterator.next()
            let group = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            output.append(Self.alphabet[Int(group >> 18 & 0x3F)])
            output.append(Self.alphabet[Int(group >> 12 & 0x3F)])
            output.append(second == nil ? UInt8(ascii: "=") : Self.alphabet[Int(group >> 6 & 0x3F)])
            output.append(third == nil ? UInt8(ascii: "=") : Self.alphabet[Int(group & 0x3F)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Encodes contiguous bytes straight into the string's storage, three bytes to four digits at a time.
    private static func encode(contiguous bytes: UnsafeBufferPointer<UInt8>) -> String {
        let count = (bytes.count + 2) / 3 * 4
        return Self.alphabet.withUnsafeBufferPointer { alphabet in
            String(unsafeUninitializedCapacity: count) { output in
                var written = 0
                var index = 0
                while index + 3 <= bytes.count {
                    let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
                    output[written] = alphabet[Int(group >> 18 & 0x3F)]
                    output[written + 1] = alphabet[Int(group >> 12 & 0x3F)]
                    output[written + 2] = alphabet[Int(group >> 6 & 0x3F)]
                    output[written + 3] = alphabet[Int(group & 0x3F)]
                    index += 3
                    written += 4
                }
                let rest = bytes.count - index
                if rest > 0 {
                    let group = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
                    output[written] = alphabet[Int(group >> 18 & 0x3F)]
                    output[written + 1] = alphabet[Int(group >> 12 & 0x3F)]
                    output[written + 2] = rest == 2 ? alphabet[Int(group >> 6 & 0x3F)] : UInt8(ascii: "=")
                    output[written + 3] = UInt8(ascii: "=")
                    written += 4
                }
                return written
            }
        }
    }

    /// The bytes encoded by `text`, or `nil` unless it is canonical padded base64: a multiple of four digits from
    /// the standard alphabet, at most two `=` and only at the end, and zero bits in the unused part of the last digit.
    /// O(n).
    public static func decode(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 4 == 0 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(digits.count / 4 * 3)
        var start = 0
        while start < digits.count {
            let isLast = start + 4 == digits.count
            var group: UInt32 = 0
            var padding = 0
            for offset in 0..<4 {
                let digit = digits[start + offset]
                if digit == UInt8(ascii: "=") && isLast && offset >= 2 {
                    padding += 1
                    group <<= 6
                    continue
                }
                let value = Self.values[Int(digit)]
                guard value != 0xFF, padding == 0 else { return nil }
                group = group << 6 | UInt32(value)
            }
            output.append(UInt8(truncatingIfNeeded: group >> 16))
            switch padding {
            case 0:
                output.append(UInt8(truncatingIfNeeded: group >> 8))
                output.append(UInt8(truncatingIfNeeded: group))
            case 1:
                guard group & 0xFF == 0 else { return nil }
                output.append(UInt8(truncatingIfNeeded: group >> 8))
            default:
                guard group & 0xFFFF == 0 else { return nil }
            }
            start += 4
        }
        return output
    }

    /// The bytes encoded by `text` in base64url without padding (RFC 4648 §5, as JSON Web Tokens carry them), or
    /// `nil` for any other character, padding, or a length no encoding has. O(n).
    public static func decodeURL(_ text: String) -> [UInt8]? {
        guard
            !text.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "=") }
            ),
            text.utf8.count % 4 != 1
        else { return nil }
        var standard = String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { $0 == "-" ? "+" : ($0 == "_" ? "/" : $0) }))
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        return Self.decode(standard)
    }
}
