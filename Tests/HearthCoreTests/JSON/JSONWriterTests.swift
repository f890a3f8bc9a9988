import HearthCore
import HearthTestKit
import Testing

@Suite struct JSONWriterTests {
    private func text(_ value: JSONValue, pretty: Bool = false) -> String {
        value.jsonString(pretty: pretty)
    }

    @Test func escapesQuotesBackslashesAndControls() {
        #expect(self.text(.string("a\"b\\c/d")) == #""a\"b\\c/d""#)
        #expect(self.text(.string("\n\t\r\u{8}\u{C}")) == #""\n\t\r\b\f""#)
        #expect(self.text(.string("\u{0}\u{1}\u{1F}\u{7F}")) == #""\u0000\u0001\u001f"# + "\u{7F}\"")
    }

    @Test func writesRawUTF8ButEscapesLineSeparators() {
        #expect(self.text(.string("é中😀")) == "\"é中😀\"")
        #expect(self.text(.string("a\u{2028}b\u{2029}c")) == #""a\u2028b\u2029c""#)
        #expect(self.text(.string("\u{2027}\u{202A}€")) == "\"\u{2027}\u{202A}€\"")
    }

    @Test func integersAreExact() {
        #expect(self.text(.int(0)) == "0")
        #expect(self.text(.int(-7)) == "-7")
        #expect(self.text(.int(Int64.max)) == "9223372036854775807")
        #expect(self.text(.int(Int64.min)) == "-9223372036854775808")
    }

    /// An integer's text appended on its own (a log record's values) is the writer's, and takes the bytes
    /// `decimalCount` says.
    @Test(arguments: [0, 7, 9, 10, 99, -1, -9, -10, 1_000_000, Int64.max, Int64.min, Int64.min + 1] as [Int64])
    func decimalsAreTheWritersText(value: Int64) {
        var bytes: [UInt8] = [0xAA]
        JSONWriter.appendDecimal(value, to: &bytes)
        #expect(bytes == [0xAA] + Array(String(value).utf8))
        #expect(JSONWriter.decimalCount(of: value) == String(value).utf8.count)
    }

    /// A member's name appended on its own (a REST PATCH's echo) is the name's JSON string and a colon, behind what
    /// the bytes held, for small and stored strings, escapes and non-ASCII text, one writer reused for all of them.
    @Test func aMemberNameIsItsJSONStringAndAColon() {
        var writer = JSONWriter()
        for name in [
            "", "a", "posts/p1/starCount", "user-posts/r12345678-a3/r12345678-p3/stars/u12", "q\"uo\\te",
            "\n\u{1}\u{2028}é中😀", String(repeating: "long-", count: 40),
        ] {
            var bytes: [UInt8] = [0xAA]
            writer.writeMemberName(name, to: &bytes)
            #expect(bytes == [0xAA] + JSONValue.string(name).jsonBytes() + [UInt8(ascii: ":")], "\(name)")
        }
    }

    @Test func integralDoublesBelow2To53PrintAsIntegers() {
        #expect(self.text(.double(1.0)) == "1")
        #expect(self.text(.double(-0.0)) == "0")
        #expect(self.text(.double(-42.0)) == "-42")
        #expect(self.text(.double(9_007_199_254_740_991)) == "9007199254740991")
        #expect(self.text(.double(1e300)) == "1e+300")
    }

    @Test func otherDoublesUseTheShortestRoundTripForm() throws {
        for value in [
            0.1, -2.5, 1e-7, Double.leastNonzeroMagnitude, 1.7976931348623157e308, 9_007_199_254_740_992.0, 123.456,
            1e21,
        ] {
            let bytes = JSONValue.double(value).jsonBytes()
            let parsed = try JSONReader.parseValue(bytes)
            #expect(parsed.numberAsDouble == value, "\(String(decoding: bytes, as: UTF8.self))")
        }
        #expect(self.text(.double(0.1)) == "0.1")
        #expect(self.text(.double(1e-7)) == "1e-07")
    }

    @Test func nonFiniteDoublesBecomeNull() {
        #expect(self.text(.array([.double(.nan), .double(.infinity)])) == "[null,null]")
    }

    @Test func objectsAreWrittenInKeyOrder() {
        let value = JSONValue.object(["b": .int(1), "10": .int(2), "a": .int(3), "2": .int(4)])
        #expect(self.text(value) == #"{"2":4,"10":2,"a":3,"b":1}"#)
    }

    /// Members of any kind of key (integers, zero-led and negative ones, shared prefixes, non-ASCII) come out in
    /// `Key` order.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomObjectsAreWrittenInKeyOrder(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let shapes =
            [("", ""), ("-", ""), ("0", ""), ("u", ""), ("user-000", ""), ("", "99999999999"), ("é", "")]
            + [("a\u{FF5E}", ""), ("a\u{1F600}", "")]
        for _ in 0..<50 {
            var members: [JSONKey: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...40, using: &random) {
                let (prefix, suffix) = shapes[Int.random(in: 0..<shapes.count, using: &random)]
                members[JSONKey(prefix + "\(Int.random(in: 0..<30, using: &random))" + suffix)] = .int(1)
            }
            let expected = members.keys.map(\.key).sorted().map { #""\#($0.string)":1"# }
            #expect(self.text(.object(members)) == "{" + expected.joined(separator: ",") + "}")
        }
    }

    @Test func prettyFormIndentsByTwoSpaces() {
        let value = JSONValue.object(["a": .array([.int(1), .object([:]), .array([])]), "b": .object(["c": .null])])
        let expected = """
            {
              "a": [
                1,
                {},
                []
              ],
              "b": {
                "c": null
              }
            }
            """
        #expect(self.text(value, pretty: true) == expected)
    }

    @Test func appendsToAReusedBuffer() {
        var writer = JSONWriter()
        var buffer: [UInt8] = Array("x=".utf8)
        writer.write(JSONValue.int(1), to: &buffer)
        writer.write(JSONValue.array([.bool(true)]), to: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == "x=1[true]")
    }

    /// A large tree reaches a streaming output in bounded chunks that add up to the same bytes.
    @Test func streamsLargeTreesInChunks() {
        let keys = (0..<20_000).map { Key(unchecked: "key\($0)") }.sorted()
        let leaf = Node(.string(String(repeating: "v", count: 20)))
        let node = Node(children: ChildMap(sortedUniqueElements: keys.map { ($0, leaf) }))
        var sink = ChunkRecorder()
        node.writeJSON(format: .plain, pretty: false, to: &sink)
        #expect(sink.chunkSizes.count > 5)
        #expect(sink.chunkSizes.allSatisfy { $0 <= 64 * 1024 + 512 })
        #expect(sink.bytes == node.jsonBytes(format: .plain))
    }
}

/// A `JSONOutput` that records how it was called.
struct ChunkRecorder: JSONOutput {
    var bytes: [UInt8] = []
    var chunkSizes: [Int] = []

    mutating func write(_ bytes: UnsafeRawBufferPointer) {
        self.chunkSizes.append(bytes.count)
        self.bytes.append(contentsOf: bytes)
    }
}
