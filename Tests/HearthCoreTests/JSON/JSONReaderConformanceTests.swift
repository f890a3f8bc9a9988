import HearthCore
import Testing

/// RFC 8259 accept/reject cases in the spirit of JSONTestSuite's `y_` and `n_` files (written for Hearth).
@Suite struct JSONReaderConformanceTests {
    static let accepted: [(String, JSONValue)] = [
        ("null", .null),
        ("true", .bool(true)),
        ("false", .bool(false)),
        ("0", .int(0)),
        ("-0", .int(0)),
        ("123", .int(123)),
        ("-123", .int(-123)),
        ("1.5", .double(1.5)),
        ("-0.25", .double(-0.25)),
        ("1e2", .double(100)),
        ("1E+2", .double(100)),
        ("1e-2", .double(0.01)),
        ("0.5e1", .double(5)),
        ("1.0", .double(1)),
        ("\"\"", .string("")),
        ("\"abc\"", .string("abc")),
        ("[]", .array([])),
        ("[1]", .array([.int(1)])),
        ("[1,\"a\",null,true,[],{}]", .array([.int(1), .string("a"), .null, .bool(true), .array([]), .object([:])])),
        ("{}", .object([:])),
        ("{\"a\":1}", .object(["a": .int(1)])),
        ("{\"a\":1,\"a\":2}", .object(["a": .int(2)])),
        ("{\"\":0}", .object(["": .int(0)])),
        (" \t\r\n[ 1 , 2 ] \n", .array([.int(1), .int(2)])),
        ("{ \"a\" : [ { \"b\" : null } ] }", .object(["a": .array([.object(["b": .null])])])),
        ("\u{FEFF}{\"bom\":true}", .object(["bom": .bool(true)])),
        ("\"\\u0000\"", .string("\u{0}")),
        ("\"\\/\"", .string("/")),
        ("\"\u{7F}\"", .string("\u{7F}")),
        ("1e-400", .double(0)),
        ("[-1e-400]", .array([.double(-0.0)])),
    ]

    @Test func acceptsEveryValidDocument() throws {
        for (text, expected) in Self.accepted {
            let parsed = try JSONReader.parseValue(text)
            #expect(parsed == expected, "\(text)")
        }
    }

    /// An object keeps the last value of a key it repeats, however many members it has.
    @Test func aRepeatedKeyKeepsItsLastValueInObjectsOfEverySize() throws {
        for count in [1, 2, 7, 1_000] {
            let members = (0..<count).map { #""k\#($0)":\#($0)"# } + [#""k0":"last""#]
            let parsed = try JSONReader.parseValue("{" + members.joined(separator: ",") + "}")
            guard case .object(let object) = parsed else {
                Issue.record("\(count) members: \(parsed)")
                continue
            }
            #expect(object.count == count)
            #expect(object["k0"] == .string("last"))
            #expect(object["k\(count - 1)"] == (count == 1 ? .string("last") : .int(Int64(count - 1))))
        }
    }

    static let rejected: [(String, JSONError.Code)] = [
        ("", .unexpectedEnd),
        (" ", .unexpectedEnd),
        ("[", .unexpectedEnd),
        ("[1", .unexpectedEnd),
        ("[1,", .unexpectedEnd),
        ("{", .unexpectedEnd),
        ("{\"a\"", .unexpectedEnd),
        ("{\"a\":", .unexpectedEnd),
        ("\"abc", .unexpectedEnd),
        ("[1,]", .unexpectedCharacter),
        ("{\"a\":1,}", .unexpectedCharacter),
        ("[,1]", .unexpectedCharacter),
        ("[1 2]", .unexpectedCharacter),
        ("{\"a\" 1}", .unexpectedCharacter),
        ("{a:1}", .unexpectedCharacter),
        ("{'a':1}", .unexpectedCharacter),
        ("{1:1}", .unexpectedCharacter),
        ("[1}", .unexpectedCharacter),
        ("{\"a\":1]", .unexpectedCharacter),
        ("// comment\n1", .unexpectedCharacter),
        ("[1/*c*/]", .unexpectedCharacter),
        ("NaN", .unexpectedCharacter),
        ("Infinity", .unexpectedCharacter),
        ("-Infinity", .invalidNumber),
        ("tru", .unexpectedEnd),
        ("nul", .unexpectedEnd),
        ("True", .unexpectedCharacter),
        ("nulll", .trailingCharacters),
        ("01", .invalidNumber),
        ("-01", .invalidNumber),
        ("00", .invalidNumber),
        ("+1", .unexpectedCharacter),
        ("-", .invalidNumber),
        ("1.", .invalidNumber),
        (".5", .unexpectedCharacter),
        ("1.e5", .invalidNumber),
        ("1e", .invalidNumber),
        ("1e+", .invalidNumber),
        ("0x10", .trailingCharacters),
        ("1e400", .numberOutOfRange),
        ("-1e400", .numberOutOfRange),
        ("\"\\x\"", .invalidEscape),
        ("\"\\'\"", .invalidEscape),
        ("\"\\u12\"", .invalidEscape),
        ("\"\\u12G4\"", .invalidEscape),
        ("\"\\uD800\"", .loneSurrogate),
        ("\"\\uDC00\"", .loneSurrogate),
        ("\"\\uD800\\u0041\"", .loneSurrogate),
        ("\"\\uD800\\n\"", .loneSurrogate),
        ("\"a\nb\"", .controlCharacter),
        ("\"a\tb\"", .controlCharacter),
        ("\"\u{0}\"", .controlCharacter),
        ("1 2", .trailingCharacters),
        ("{} x", .trailingCharacters),
        ("[]]", .trailingCharacters),
        ("\u{FEFF}\u{FEFF}1", .unexpectedCharacter),
        ("\u{A0}1", .unexpectedCharacter),
    ]

    @Test func rejectsEveryInvalidDocumentWithItsCode() {
        for (text, code) in Self.rejected {
            do {
                let value = try JSONReader.parseValue(text)
                Issue.record("accepted \(text.debugDescription) as \(value)")
            } catch {
                #expect(error.code == code, "\(text.debugDescription): \(error.message)")
            }
        }
    }

    @Test func errorsCarryTheByteOffset() throws {
        let error = try #require(throws: JSONError.self) { try JSONReader.parseValue("{\"a\": [1, 2,, 3]}") }
        #expect(error.offset == 12)
        #expect(error.message.contains("byte 12"))
    }

    /// Raw bytes that are not UTF-8 (or are overlong, surrogates, or above U+10FFFF) are rejected inside strings.
    @Test(
        arguments: [
            [0x80], [0xBF], [0xC0, 0xAF], [0xC1, 0xBF], [0xC3], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80],
            [0xF0, 0x80, 0x80, 0xAF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0xE2, 0x82],
            [0xC3, 0x28],
        ] as [[UInt8]]
    )
    func rejectsInvalidUTF8(_ sequence: [UInt8]) {
        let document = [UInt8(ascii: "\"")] + sequence + [UInt8(ascii: "\"")]
        #expect {
            try JSONReader.parseValue(document)
        } throws: { error in
            (error as? JSONError)?.code == .invalidUTF8
        }
    }

    @Test func acceptsEveryWellFormedUTF8Length() throws {
        let text = "$ £ € 𐍈 \u{10FFFF} \u{E000} \u{D7FF}"
        let parsed = try JSONReader.parseValue(Array("\"\(text)\"".utf8))
        #expect(parsed == .string(text))
    }

    @Test func rejectsInvalidUTF8OutsideStrings() {
        #expect(throws: JSONError.self) { try JSONReader.parseValue([0xC3, 0xA9]) }
        #expect(throws: JSONError.self) { try JSONReader.parseValue([UInt8(ascii: "1"), 0xFF]) }
    }
}
