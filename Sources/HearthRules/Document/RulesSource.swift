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
