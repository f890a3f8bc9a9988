import HearthCore
import Testing

@Suite struct JSONReaderStringTests {
    @Test func simpleEscapesDecode() throws {
        let parsed = try JSONValue.parsing(#""\" \\ \/ \b \f \n \r \t""#)
        #expect(parsed == .string("\" \\ / \u{8} \u{C} \n \r \t"))
    }

    @Test func unicodeEscapesDecode() throws {
        #expect(try JSONValue.parsing(#""\u0041\u00e9\u4E2D\uFFFF""#) == .string("Aé中\u{FFFF}"))
        #expect(try JSONValue.parsing(#""\u0000x""#) == .string("\u{0}x"))
    }

    @Test func surrogatePairsCombine() throws {
        #expect(try JSONValue.parsing(#""\uD83D\uDE00""#) == .string("😀"))
        #expect(try JSONValue.parsing(#""\uD800\uDC00""#) == .string("\u{10000}"))
        #expect(try JSONValue.parsing(#""\uDBFF\uDFFF""#) == .string("\u{10FFFF}"))
        #expect(try JSONValue.parsing(#""a\ud83d\ude00b""#) == .string("a😀b"))
    }

    @Test(arguments: [
        #""\uD83D""#, #""\uDE00""#, #""\uD83D\uD83D""#, #""\uD83Dx""#, #""\uDE00\uD83D""#, #""\uD83D\u""#,
    ])
    func loneSurrogatesAreErrors(_ text: String) {
        #expect(throws: JSONError.self) { try JSONValue.parsing(text) }
    }

    @Test func escapesMixWithRawUTF8() throws {
        #expect(try JSONValue.parsing("\"é\\n中\\u0041😀\"") == .string("é\n中A😀"))
    }

    @Test func longStringsCrossWordBoundaries() throws {
        for length in 0..<40 {
            for special in ["", "\\n", "é", "\\u00e9"] {
                let body = String(repeating: "x", count: length) + special + String(repeating: "y", count: length % 9)
                let parsed = try JSONValue.parsing("\"\(body)\"")
                let expected =
                    String(repeating: "x", count: length)
                    + ["": "", "\\n": "\n", "é": "é", "\\u00e9": "é"][special, default: ""]
                    + String(repeating: "y", count: length % 9)
                #expect(parsed == .string(expected))
            }
        }
    }

    @Test func controlCharactersAfterLongRunsAreFound() {
        for length in 0..<20 {
            let text = "\"" + String(repeating: "a", count: length) + "\u{1}" + "\""
            #expect(throws: JSONError.self) { try JSONValue.parsing(text) }
        }
    }
}
