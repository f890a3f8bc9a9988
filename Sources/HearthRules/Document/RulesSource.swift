/// The text of a rules file as Firebase reads it: JSON that may hold `//` and `/* */` comments outside strings.
enum RulesSource {
    /// The text with every comment replaced by spaces (newlines kept), so offsets and lines stay where they were.
    static func strippingComments(_ text: String) throws(RuleSyntaxError) -> [UInt8] {
        var bytes = Array(text.utf8)
        var index = 0
        var inString = false
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") {
                    index += 2
                    continue
                }
                if byte == UInt8(ascii: "\"") { inString = false }
                index += 1
                continue
            }
            if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                while index < bytes.count, bytes[index] != 10 {
                    bytes[index] = 32
                    index += 1
                }
                continue
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                let start = index
                while index < bytes.count,
                    !(bytes[index] == UInt8(ascii: "*") && index + 1 < bytes.count
                        && bytes[index + 1] == UInt8(ascii: "/"))
                {
                    if bytes[index] != 10 { bytes[index] = 32 }
                    index += 1
                }
                guard index < bytes.count else { throw RuleSyntaxError("Unterminated comment.", offset: start) }
                bytes[index] = 32
                bytes[index + 1] = 32
                index += 2
                continue
            }
            index += 1
        }
        return bytes
    }

    /// The 1-based line and column of a UTF-8 offset.
    static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in bytes.prefix(offset) {
            if byte == 10 {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return (line, column)
    }

    /// Where the member at `keys` (from the document's top) roughly starts: each key searched for, quoted, after
    /// the previous one. Good enough to point a message at the right line.
    static func offset(of keys: [String], in bytes: [UInt8]) -> Int {
        var position = 0
        for key in keys {
            let quoted = Array("\"\(key)\"".utf8)
            guard let found = Self.find(quoted, in: bytes, from: position) else { return position }
            position = found
        }
        return position
    }

    /// Where in the file the byte `decoded` of a member's string value is (the value's UTF-8 after JSON escapes are
    /// read), given where the member's quoted key starts: so an error in an expression points at its place. Nil when
    /// the member's value is not a string there.
    static func offset(ofDecoded decoded: Int, inStringAfter member: Int, in bytes: [UInt8]) -> Int? {
        var index = member + 1
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
        }
        index += 1
        while index < bytes.count, [9, 10, 13, 32, UInt8(ascii: ":")].contains(bytes[index]) { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        index += 1
        var count = 0
        while index < bytes.count, count < decoded, bytes[index] != UInt8(ascii: "\"") {
            guard bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count else {
                index += 1
                count += 1
                continue
            }
            guard bytes[index + 1] == UInt8(ascii: "u") else {
                index += 2
                count += 1
                continue
            }
            // `\uXXXX` stands for 1 to 3 UTF-8 bytes; each half of a surrogate pair for 2 of the pair's 4.
            let hex = String(decoding: bytes[(index + 2)..<min(index + 6, bytes.count)], as: UTF8.self)
            let unit = UInt32(hex, radix: 16) ?? 0
            count += unit < 0x80 ? 1 : unit < 0x800 ? 2 : (0xD800...0xDFFF).contains(unit) ? 2 : 3
            index += 6
        }
        return min(index, bytes.count)
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard needle.count <= bytes.count else { return nil }
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
