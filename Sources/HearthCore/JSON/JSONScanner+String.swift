/// Reading JSON strings: escapes, surrogate pairs, raw control characters and UTF-8 validation.
extension JSONScanner {
    /// Reads from just after the opening quote to just after the closing quote.
    ///
    /// Strings without escapes (the common case) are validated in place, skipping 8 plain ASCII bytes at a time,
    /// and copied once into the resulting `String`.
    mutating func readStringBody() throws(JSONError) -> String {
        switch try self.scanStringBody() {
        case .raw(let range): String(decoding: UnsafeBufferPointer(rebasing: self.bytes[range]), as: UTF8.self)
        case .escaped: String(decoding: self.scratch, as: UTF8.self)
        }
    }

    /// Reads a string's body as `readStringBody` does and appends its decoded bytes to `buffer` instead of making a
    /// `String`; returns where they lie in `buffer`. A reader that only compares or splits a string (a member name,
    /// a path) reads it this way and allocates nothing.
    mutating func readStringBody(appendingTo buffer: inout [UInt8]) throws(JSONError) -> Range<Int> {
        let start = buffer.count
        switch try self.scanStringBody() {
        case .raw(let range): buffer.append(contentsOf: UnsafeBufferPointer(rebasing: self.bytes[range]))
        case .escaped: buffer.append(contentsOf: self.scratch)
        }
        return start..<buffer.count
    }

    /// Reads a string's body as `readStringBody` does and tells it by its letter: its only byte once decoded, 0 for
    /// a string of any other length.
    mutating func readStringLetter() throws(JSONError) -> UInt8 {
        switch try self.scanStringBody() {
        case .raw(let range): range.count == 1 ? self.bytes[range.lowerBound] : 0
        case .escaped: self.scratch.count == 1 ? self.scratch[0] : 0
        }
    }

    /// Where a string's decoded bytes are, once its body is read.
    enum StringBody {
        /// In the input, unchanged (no escapes).
        case raw(Range<Int>)
        /// In `scratch`, decoded.
        case escaped
    }

    /// Reads and checks a string's body, leaving the scanner just after its closing quote.
    private mutating func scanStringBody() throws(JSONError) -> StringBody {
        let start = self.position
        let count = self.bytes.count
        var index = start
        while true {
            index = self.skipPlainASCII(from: index)
            guard index < count else {
                self.position = count
                throw self.unexpectedEnd(expecting: "a closing quote")
            }
            let byte = self.bytes[index]
            if byte == UInt8(ascii: "\"") {
                self.position = index + 1
                return .raw(start..<index)
            } else if byte == UInt8(ascii: "\\") {
                try self.readEscapedString(start: start, firstEscape: index)
                return .escaped
            } else if byte < 0x20 {
                throw self.controlCharacter(at: index)
            } else if byte >= 0x80 {
                index = try self.validateUTF8Sequence(at: index)
            } else {
                index += 1
            }
        }
    }

    /// Skips bytes that need no attention (ASCII other than `"`, `\` and controls), a word at a time.
    private func skipPlainASCII(from start: Int) -> Int {
        var index = start
        let count = self.bytes.count
        guard let base = self.bytes.baseAddress else { return index }
        let raw = UnsafeRawPointer(base)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while index + 8 <= count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let quotes = word ^ (ones &* 0x22)
            let backslashes = word ^ (ones &* 0x5C)
            let controls = (word &- ones &* 0x20) & ~word
            let hasQuote = (quotes &- ones) & ~quotes
            let hasBackslash = (backslashes &- ones) & ~backslashes
            if ((controls | hasQuote | hasBackslash) & highs) | (word & highs) != 0 { break }
            index += 8
        }
        return index
    }

    /// The slow path once a backslash is seen: decodes into `scratch`.
    private mutating func readEscapedString(start: Int, firstEscape: Int) throws(JSONError) {
        self.scratch.removeAll(keepingCapacity: true)
        self.scratch.append(contentsOf: UnsafeBufferPointer(rebasing: self.bytes[start..<firstEscape]))
        let count = self.bytes.count
        var index = firstEscape
        while index < count {
            let byte = self.bytes[index]
            if byte == UInt8(ascii: "\"") {
                self.position = index + 1
                return
            } else if byte == UInt8(ascii: "\\") {
                index = try self.decodeEscape(at: index)
            } else if byte < 0x20 {
                throw self.controlCharacter(at: index)
            } else if byte >= 0x80 {
                let end = try self.validateUTF8Sequence(at: index)
                self.scratch.append(contentsOf: UnsafeBufferPointer(rebasing: self.bytes[index..<end]))
                index = end
            } else {
                self.scratch.append(byte)
                index += 1
            }
        }
        self.position = count
        throw self.unexpectedEnd(expecting: "a closing quote")
    }

    /// Decodes the escape starting at the backslash at `index` into `scratch`; returns the index after it.
    private mutating func decodeEscape(at index: Int) throws(JSONError) -> Int {
        guard index + 1 < self.bytes.count else {
            self.position = self.bytes.count
            throw self.unexpectedEnd(expecting: "an escape sequence")
        }
        let simple: UInt8
        switch self.bytes[index + 1] {
        case UInt8(ascii: "\""): simple = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): simple = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): simple = UInt8(ascii: "/")
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"): return try self.decodeUnicodeEscape(at: index)
        default:
            throw JSONError(
                .invalidEscape,
                "Invalid escape \"\\\(self.describeEscapeCharacter(at: index + 1))\""
                    + " at byte \(index): JSON allows \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX.",
                offset: index
            )
        }
        self.scratch.append(simple)
        return index + 2
    }

    /// Decodes `\uXXXX`, pairing a high surrogate with the `\uXXXX` low surrogate that must follow it.
    private mutating func decodeUnicodeEscape(at index: Int) throws(JSONError) -> Int {
        let unit = try self.readHex4(at: index + 2, escapeStart: index)
        var scalarValue = UInt32(unit)
        var next = index + 6
        if unit >= 0xD800 && unit <= 0xDBFF {
            guard next + 1 < self.bytes.count, self.bytes[next] == UInt8(ascii: "\\"),
                self.bytes[next + 1] == UInt8(ascii: "u")
            else {
                throw self.loneSurrogate(unit, at: index)
            }
            let low = try self.readHex4(at: next + 2, escapeStart: next)
            guard low >= 0xDC00 && low <= 0xDFFF else { throw self.loneSurrogate(unit, at: index) }
            scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            next += 6
        } else if unit >= 0xDC00 && unit <= 0xDFFF {
            throw self.loneSurrogate(unit, at: index)
        }
        self.appendUTF8(scalarValue)
        return next
    }

    /// Appends a Unicode scalar value (never a surrogate, at most U+10FFFF) to `scratch` as UTF-8.
    private mutating func appendUTF8(_ value: UInt32) {
        switch value {
        case 0..<0x80:
            self.scratch.append(UInt8(truncatingIfNeeded: value))
        case 0x80..<0x800:
            self.scratch.append(UInt8(truncatingIfNeeded: 0xC0 | value >> 6))
            self.scratch.append(UInt8(truncatingIfNeeded: 0x80 | value & 0x3F))
        case 0x800..<0x10000:
            self.scratch.append(UInt8(truncatingIfNeeded: 0xE0 | value >> 12))
            self.scratch.append(UInt8(truncatingIfNeeded: 0x80 | value >> 6 & 0x3F))
            self.scratch.append(UInt8(truncatingIfNeeded: 0x80 | value & 0x3F))
        default:
            self.scratch.append(UInt8(truncatingIfNeeded: 0xF0 | value >> 18))
            self.scratch.append(UInt8(truncatingIfNeeded: 0x80 | value >> 12 & 0x3F))
            self.scratch.append(UInt8(truncatingIfNeeded: 0x80 | value >> 6 & 0x3F))
            self.scratch.append(UInt8(truncatingIfNeeded: 0x80 | value & 0x3F))
        }
    }

    /// Four hex digits starting at `offset`.
    private func readHex4(at offset: Int, escapeStart: Int) throws(JSONError) -> UInt16 {
        var value: UInt16 = 0
        for index in offset..<(offset + 4) {
            guard index < self.bytes.count else {
                throw JSONError(
                    .unexpectedEnd,
                    "Unexpected end of JSON inside the \\u escape at byte \(escapeStart): expected 4 hex digits.",
                    offset: self.bytes.count
                )
            }
            let byte = self.bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default:
                throw JSONError(
                    .invalidEscape,
                    "Invalid \\u escape at byte \(escapeStart)"
                        + ": expected 4 hex digits, found \(self.describeByte(at: index)).",
                    offset: index
                )
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    /// Checks the multi-byte UTF-8 sequence whose lead byte is at `index` (RFC 3629: no overlongs, no surrogates,
    /// nothing above U+10FFFF) and returns the index after it.
    func validateUTF8Sequence(at index: Int) throws(JSONError) -> Int {
        let lead = self.bytes[index]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF:
            length = 2
        case 0xE0...0xEF:
            length = 3
            if lead == 0xE0 { low = 0xA0 }
            if lead == 0xED { high = 0x9F }
        case 0xF0...0xF4:
            length = 4
            if lead == 0xF0 { low = 0x90 }
            if lead == 0xF4 { high = 0x8F }
        default:
            throw self.invalidUTF8(at: index)
        }
        guard index + length <= self.bytes.count else { throw self.invalidUTF8(at: index) }
        let second = self.bytes[index + 1]
        guard second >= low && second <= high else { throw self.invalidUTF8(at: index) }
        var offset = 2
        while offset < length {
            guard self.bytes[index + offset] & 0xC0 == 0x80 else { throw self.invalidUTF8(at: index) }
            offset += 1
        }
        return index + length
    }

    private func invalidUTF8(at index: Int) -> JSONError {
        JSONError(.invalidUTF8, "Invalid UTF-8 at byte \(index): JSON text must be well-formed UTF-8.", offset: index)
    }

    private func controlCharacter(at index: Int) -> JSONError {
        JSONError(
            .controlCharacter,
            "Raw control character \(self.describeByte(at: index))"
                + " in a string at byte \(index): escape it (for example as \\n or \\u0001).",
            offset: index
        )
    }

    private func loneSurrogate(_ unit: UInt16, at index: Int) -> JSONError {
        JSONError(
            .loneSurrogate,
            "Lone surrogate \\u\(String(unit, radix: 16, uppercase: true))"
                + " at byte \(index): a high surrogate \\uD800–\\uDBFF"
                + " must be followed by a low surrogate \\uDC00–\\uDFFF.",
            offset: index
        )
    }

    private func describeEscapeCharacter(at index: Int) -> String {
        guard index < self.bytes.count else { return "" }
        let byte = self.bytes[index]
        return byte >= 0x21 && byte < 0x7F ? String(Character(Unicode.Scalar(byte))) : "\\x" + String(byte, radix: 16)
    }
}
