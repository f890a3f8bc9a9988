import HearthCore
import HearthWire
import Testing

/// REST's `writeSizeLimit`: the bytes sent plus the data replaced must fit the named budget.
@Suite struct WriteSizeLimitTests {
    /// A node with `count` children each holding a 1 KiB string.
    private static func tree(children count: Int) throws -> Node {
        let text = JSONValue.string(String(repeating: "x", count: 1024))
        return try WriteValue(
            json: .object(Dictionary(uniqueKeysWithValues: (0..<count).map { ("c\($0)", text) })), depth: 0
        )
        .node
    }

    @Test func namesMapToFirebasesBudgets() throws {
        #expect(try WriteSizeLimit(name: "tiny").bytes == 1 << 20)
        #expect(try WriteSizeLimit(name: "small").bytes == 10 << 20)
        #expect(try WriteSizeLimit(name: "medium").bytes == 30 << 20)
        #expect(try WriteSizeLimit(name: "large").bytes == 60 << 20)
        #expect(try WriteSizeLimit(name: "unlimited").bytes == nil)
        #expect(throws: WriteRuleError.unknownSizeLimit("huge")) { try WriteSizeLimit(name: "huge") }
    }

    @Test func theBodyAndTheReplacedDataCountTogether() throws {
        let tiny = try WriteSizeLimit(name: "tiny")
        #expect(throws: Never.self) { try tiny.check(bodyBytes: 1000, replacing: [try Self.tree(children: 10)]) }
        #expect(throws: WriteRuleError.sizeLimitExceeded("tiny")) {
            try tiny.check(bodyBytes: (1 << 20) + 1, replacing: [])
        }
        #expect(throws: WriteRuleError.sizeLimitExceeded("tiny")) {
            try tiny.check(bodyBytes: 10, replacing: [try Self.tree(children: 1100)])
        }
        #expect(throws: WriteRuleError.sizeLimitExceeded("tiny")) {
            try tiny.check(bodyBytes: 10, replacing: [try Self.tree(children: 600), try Self.tree(children: 600)])
        }
        #expect(throws: Never.self) {
            try WriteSizeLimit(name: "unlimited").check(bodyBytes: 1 << 40, replacing: [try Self.tree(children: 2000)])
        }
    }

    @Test func theMessagesSayWhatToChange() {
        #expect(
            "\(WriteRuleError.sizeLimitExceeded("tiny"))"
                == "Data to write exceeds writeSizeLimit=tiny; use a larger writeSizeLimit or write smaller parts.")
        #expect(
            "\(WriteRuleError.unknownSizeLimit("huge"))"
                == "writeSizeLimit must be tiny, small, medium, large or unlimited (got \"huge\").")
    }
}
