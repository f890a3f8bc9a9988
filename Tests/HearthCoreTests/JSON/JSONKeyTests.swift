import HearthCore
import Testing

/// JSON object members named by strings that differ only in their Unicode normalisation (`"é"`, U+00E9, and
/// `"e\u{301}"`, `e` and a combining acute accent) are two members everywhere a `JSONValue` carries them, as in
/// Firebase, which compares keys as code units.
@Suite struct JSONKeyTests {
    static let composed = "\u{E9}"
    static let decomposed = "e\u{301}"
    /// `{"é": 1, "e\u0301": 2}`, the composed name spelled as an escape.
    static let document = #"{"\u00e9":1,"e\u0301":2}"#

    /// The two names are one `String` to Swift, but two names (and two hashes' inputs) as `JSONKey`s.
    @Test func namesCompareByTheirBytes() {
        #expect(Self.composed == Self.decomposed)
        #expect(JSONKey(Self.composed) != JSONKey(Self.decomposed))
        #expect(Set([JSONKey(Self.composed), JSONKey(Self.decomposed), JSONKey("\u{E9}")]).count == 2)
        #expect(JSONKey(Self.decomposed) < JSONKey(Self.composed))
        #expect(!(JSONKey(Self.composed) < JSONKey(Self.composed)))
        let ordered = ["", "a", "ab", "abcdefgh", "abcdefgh1", "abcdefgi", "b", "e\u{301}", "\u{E9}", "\u{1F600}"]
        for (index, name) in ordered.enumerated() {
            for (other, otherName) in ordered.enumerated() {
                #expect((JSONKey(name) < JSONKey(otherName)) == (index < other), "\(name) < \(otherName)")
            }
        }
        let literal: JSONKey = "a"
        #expect(literal == JSONKey(Key(unchecked: "a")))
    }

    /// Equality is one comparison of the bytes: `==` and `sameBytes` agree with comparing the UTF-8 bytes for every
    /// pair of names, long (past eight bytes) and short, equal and not, composed and decomposed.
    @Test func equalityIsByteEquality() {
        let names = [
            "", "a", "b", "ab", "abcdefgh", "abcdefgh1", "abcdefgi", "abcdefghijklmnopq", "abcdefghijklmnopr",
            Self.composed, Self.decomposed, "\u{1F600}", "posts/p1/stars/uid", "posts/p1/stars/uie",
        ]
        for name in names {
            for other in names + [String(decoding: Array(name.utf8), as: UTF8.self)] {
                let isSame = name.utf8.elementsEqual(other.utf8)
                #expect((JSONKey(name) == JSONKey(other)) == isSame, "\(name) == \(other)")
                #expect(JSONKey.sameBytes(name, other) == isSame, "\(name) sameBytes \(other)")
            }
        }
    }

    /// The reader keeps both members, and each is found by its own spelling.
    @Test func theReaderKeepsBothMembers() throws {
        let value = try JSONReader.parseValue(Self.document)
        guard case .object(let members) = value else {
            Issue.record("not an object: \(value)")
            return
        }
        #expect(members.count == 2)
        #expect(value[Self.composed] == .int(1))
        #expect(value[Self.decomposed] == .int(2))
        #expect(value != .object([JSONKey(Self.composed): .int(1)]))
    }

    /// Members with the same bytes (however they are escaped) keep the last, as `JSON.parse` does.
    @Test func byteIdenticalDuplicatesKeepTheLast() throws {
        let value = try JSONReader.parseValue(#"{"é":1,"\u00e9":2,"e\u0301":3,"e\u0301":4}"#)
        #expect(value == .object([JSONKey(Self.composed): .int(2), JSONKey(Self.decomposed): .int(4)]))
    }

    /// Writing keeps both members, in Firebase's key order (UTF-16 code units: `e` before `é`), and reading the
    /// text again gives the same value.
    @Test func theWriterKeepsBothMembersInKeyOrder() throws {
        let value = try JSONReader.parseValue(Self.document)
        let text = value.jsonString()
        #expect(Array(text.utf8) == Array("{\"e\u{301}\":2,\"\u{E9}\":1}".utf8))
        #expect(try JSONReader.parseValue(text) == value)
    }

    /// A value's tree keeps both children, and the tree turns back into both members.
    @Test func treesKeepBothChildren() throws {
        let value = try JSONReader.parseValue(Self.document)
        let written = try WriteValue(json: value, depth: 0)
        #expect(written.node.childCount == 2)
        #expect(written.node.child(try Key(validating: Self.composed)) == Node(.int(1)))
        #expect(written.node.child(try Key(validating: Self.decomposed)) == Node(.int(2)))
        #expect(written.node.jsonValue(format: .plain) == value)
        #expect(written.node.jsonValue(format: .export) == value)
        #expect(written.jsonValue() == value)
        let parsed = try WriteValue.parseWrite(Array(Self.document.utf8), depth: 0)
        #expect(parsed.node == written.node)
        #expect(Array(parsed.node.jsonBytes()) == Array(value.jsonBytes()))
    }
}
