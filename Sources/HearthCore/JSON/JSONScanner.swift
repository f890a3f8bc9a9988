/// The lexical half of `JSONReader`: a cursor over UTF-8 bytes that reads one token at a time.
///
/// It never recurses and never builds containers; `JSONReader` drives it and keeps the nesting stack. Every read
/// checks bounds against `bytes.count` before touching memory, so malformed input can only throw.
struct JSONScanner {
    /// A scalar value or the start of a container, as read by `readValueToken()`.
    enum Token {
        case null
        case bool(Bool)
        case int(Int64)
        case double(Double)
        case string(String)
        case beginObject
        case beginArray
    }

    let bytes: UnsafeBufferPointer<UInt8>
    var position: Int
    /// Reused for strings with escapes so decoding them allocates only the resulting `String`.
    var scratch: [UInt8] = []

    /// Starts at the first byte, skipping a UTF-8 byte order mark if there is one.
    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        self.position = 0
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
            self.position = 3
        }
    }

    mutating func skipWhitespace() {
        let count = self.bytes.count
        while self.position < count {
            switch self.bytes[self.position] {
            case 0x20, 0x0A, 0x0D, 0x09: self.position += 1
            default: return
            }
        }
    }

    /// Reads the start of the next value.
    mutating func readValueToken() throws(JSONError) -> Token {
        self.skipWhitespace()
        guard self.position < self.bytes.count else { throw self.unexpectedEnd(expecting: "a value") }
        switch self.bytes[self.position] {
        case UInt8(ascii: "{"):
            self.position += 1
            return .beginObject
        case UInt8(ascii: "["):
            self.position += 1
            return .beginArray
        case UInt8(ascii: "\""):
            self.position += 1
            return .string(try self.readStringBody())
        case UInt8(ascii: "t"):
            try self.expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try self.expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try self.expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try self.readNumber()
        default:
            throw self.unexpectedCharacter(expecting: "a value")
        }
    }

    /// After `{`: returns `nil` for `}`, else reads the first key and its `:`.
    mutating func readFirstKey() throws(JSONError) -> String? {
        guard !self.consumeObjectEnd() else { return nil }
        return try self.readKey()
    }

    /// `readFirstKey()` appending the key's bytes to `buffer` (`readStringBody(appendingTo:)`); returns where they
    /// lie in it.
    mutating func readFirstKey(appendingTo buffer: inout [UInt8]) throws(JSONError) -> Range<Int>? {
        guard !self.consumeObjectEnd() else { return nil }
        return try self.readKey(appendingTo: &buffer)
    }

    /// `readFirstKey()` telling the key by its letter (`readKeyLetter()`).
    mutating func readFirstKeyLetter() throws(JSONError) -> UInt8? {
        guard !self.consumeObjectEnd() else { return nil }
        return try self.readKeyLetter()
    }

    /// After `{`: consumes `}` and returns true when the object is empty.
    private mutating func consumeObjectEnd() -> Bool {
        self.skipWhitespace()
        if self.position < self.bytes.count && self.bytes[self.position] == UInt8(ascii: "}") {
            self.position += 1
            return true
        }
        return false
    }

    /// Reads `"key"` and the `:` after it.
    mutating func readKey() throws(JSONError) -> String {
        try self.expectKeyQuote()
        let key = try self.readStringBody()
        try self.expectColon()
        return key
    }

    /// `readKey()` appending the key's bytes to `buffer`; returns where they lie in it.
    mutating func readKey(appendingTo buffer: inout [UInt8]) throws(JSONError) -> Range<Int> {
        try self.expectKeyQuote()
        let key = try self.readStringBody(appendingTo: &buffer)
        try self.expectColon()
        return key
    }

    /// `readKey()` telling a one-byte key by that byte, with no `String` and no buffer: the key's only byte once
    /// decoded, 0 for a key of any other length.
    mutating func readKeyLetter() throws(JSONError) -> UInt8 {
        try self.expectKeyQuote()
        let key = try self.readStringLetter()
        try self.expectColon()
        return key
    }

    /// Reads `lead` (the `{` that opens an object or the `,` after a member) and then a key of one plain byte and its
    /// `:`, written with nothing between them (`,"r":`, as every client writes a protocol envelope's keys): that byte.
    /// Nil, reading nothing, for any other bytes, which the general steps then read (and refuse) as before. A plain
    /// byte is one a string holds as it is: not a control character, a quote, a backslash or past ASCII.
    mutating func consumeKeyLetter(after lead: UInt8) -> UInt8? {
        let start = self.position
        guard start + 5 <= self.bytes.count, self.bytes[start] == lead, self.bytes[start + 1] == UInt8(ascii: "\""),
            self.bytes[start + 3] == UInt8(ascii: "\""), self.bytes[start + 4] == UInt8(ascii: ":")
        else { return nil }
        let letter = self.bytes[start + 2]
        guard Self.isPlainLetter(letter) else { return nil }
        self.position = start + 5
        return letter
    }

    /// Reads a string of one plain byte (`consumeKeyLetter`), `"d"`, at the position: that byte. Nil, reading
    /// nothing, for any other bytes.
    mutating func consumeStringLetter() -> UInt8? {
        let start = self.position
        guard start + 3 <= self.bytes.count, self.bytes[start] == UInt8(ascii: "\""),
            self.bytes[start + 2] == UInt8(ascii: "\""), Self.isPlainLetter(self.bytes[start + 1])
        else { return nil }
        self.position = start + 3
        return self.bytes[start + 1]
    }

    /// A byte a string holds as it is, one byte for one character.
    private static func isPlainLetter(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x80 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
    }

    /// Reads the quote that opens a key.
    private mutating func expectKeyQuote() throws(JSONError) {
        self.skipWhitespace()
        guard self.position < self.bytes.count else { throw self.unexpectedEnd(expecting: "a string key") }
        guard self.bytes[self.position] == UInt8(ascii: "\"") else {
            throw self.unexpectedCharacter(expecting: "a string key")
        }
        self.position += 1
    }

    /// Reads the `:` after a key.
    private mutating func expectColon() throws(JSONError) {
        self.skipWhitespace()
        guard self.position < self.bytes.count else { throw self.unexpectedEnd(expecting: "\":\"") }
        guard self.bytes[self.position] == UInt8(ascii: ":") else { throw self.unexpectedCharacter(expecting: "\":\"") }
        self.position += 1
    }

    /// Reads `literal` when the bytes at the position are exactly its bytes and returns true; false, reading
    /// nothing, otherwise. For readers that take a common shape of a value straight from its bytes.
    mutating func consume(_ literal: StaticString) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard self.position + length <= self.bytes.count,
            Key.bytesEqual(
                UnsafeBufferPointer(rebasing: self.bytes[self.position..<self.position + length]),
                UnsafeBufferPointer(start: literal.utf8Start, count: length))
        else { return false }
        self.position += length
        return true
    }

    /// After `[`: consumes `]` and returns true when the array is empty.
    mutating func consumeArrayEnd() -> Bool {
        self.skipWhitespace()
        if self.position < self.bytes.count && self.bytes[self.position] == UInt8(ascii: "]") {
            self.position += 1
            return true
        }
        return false
    }

    /// After a member or element: true for `,` (more follow), false for the container's closing bracket.
    mutating func readSeparator(inArray: Bool) throws(JSONError) -> Bool {
        self.skipWhitespace()
        let closing = inArray ? UInt8(ascii: "]") : UInt8(ascii: "}")
        // What was expected is worded only for an error (every member and element ends here).
        guard self.position < self.bytes.count else { throw self.unexpectedEnd(expecting: Self.separator(inArray)) }
        switch self.bytes[self.position] {
        case UInt8(ascii: ","):
            self.position += 1
            return true
        case closing:
            self.position += 1
            return false
        default:
            throw self.unexpectedCharacter(expecting: Self.separator(inArray))
        }
    }

    /// What may follow a member or an element, as an error names it.
    private static func separator(_ inArray: Bool) -> String {
        inArray ? "\",\" or \"]\"" : "\",\" or \"}\""
    }

    /// Checks that only whitespace follows the document's value.
    mutating func expectEnd() throws(JSONError) {
        self.skipWhitespace()
        if self.position < self.bytes.count {
            throw JSONError(
                .trailingCharacters,
                "Unexpected \(self.describeByte(at: self.position)) at byte \(self.position)"
                    + " after the end of the JSON value.",
                offset: self.position
            )
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONError) {
        let start = self.position
        let length = literal.utf8CodeUnitCount
        let text = literal.utf8Start
        for index in 0..<length {
            let at = start + index
            guard at < self.bytes.count else { throw self.unexpectedEnd(expecting: "\"\(literal)\"") }
            guard self.bytes[at] == text[index] else {
                self.position = at
                throw self.unexpectedCharacter(expecting: "\"\(literal)\"")
            }
        }
        self.position = start + length
    }

    // MARK: Errors

    func unexpectedEnd(expecting expected: String) -> JSONError {
        JSONError(
            .unexpectedEnd,
            "Unexpected end of JSON at byte \(self.bytes.count): expected \(expected).",
            offset: self.bytes.count
        )
    }

    func unexpectedCharacter(expecting expected: String) -> JSONError {
        JSONError(
            .unexpectedCharacter,
            "Unexpected \(self.describeByte(at: self.position)) at byte \(self.position): expected \(expected).",
            offset: self.position
        )
    }

    /// `"x"` for printable ASCII, `byte 0xNN` otherwise.
    func describeByte(at offset: Int) -> String {
        guard offset < self.bytes.count else { return "end of input" }
        let byte = self.bytes[offset]
        if byte >= 0x21 && byte < 0x7F {
            return "character \"\(Character(Unicode.Scalar(byte)))\""
        }
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x\(byte < 0x10 ? "0" : "")\(hex)"
    }
}
