import HearthCore
import HearthTestKit
import Testing

/// `NodeBinary` gives back exactly the node it was given, and refuses every malformed byte with an error.
@Suite struct NodeBinaryTests {
    typealias B = Tree

    private static func encoded(_ node: Node) -> [UInt8] {
        var bytes: [UInt8] = []
        NodeBinary.append(node, to: &bytes)
        return bytes
    }

    private static func decoded(_ bytes: [UInt8]) throws -> Node {
        try bytes.withUnsafeBytes { try NodeBinary.decode($0) }
    }

    static func randomNode(depth: Int, _ random: inout SeededRandom) -> Node {
        let priority: Priority? =
            switch Int.random(in: 0..<8, using: &random) {
            case 0: .int(Int64.random(in: Int64.min...Int64.max, using: &random))
            case 1: .double(Double.random(in: -1e300...1e300, using: &random))
            case 2: .string(["", "p", "é\u{2028}"][Int.random(in: 0..<3, using: &random)])
            default: nil
            }
        if depth >= 4 || Int.random(in: 0..<3, using: &random) == 0 {
            let value: LeafValue =
                switch Int.random(in: 0..<6, using: &random) {
                case 0: .bool(Bool.random(using: &random))
                case 1: .int(Int64.random(in: -70_000...70_000, using: &random))
                case 2:
                    .int(
                        [Int64.min, Int64.max, Int64(Int32.min) - 1, Int64(Int32.max) + 1][
                            Int.random(in: 0..<4, using: &random)])
                case 3:
                    .double(
                        [0, -0.0, 1.5, -2.25e-300, Double.greatestFiniteMagnitude][
                            Int.random(in: 0..<5, using: &random)])
                case 4: .string(String(repeating: "x", count: Int.random(in: 0...200, using: &random)))
                default: .string("ü\t\"\\\n🙂\(Int.random(in: 0..<100, using: &random))")
                }
            return Node(value, priority: priority)
        }
        var map = ChildMap()
        // Up to 40 children at the top so some maps are B+trees; integer, negative and non-ASCII keys test the order
        // check.
        for _ in 0..<Int.random(in: 1...(depth == 0 ? 40 : 4), using: &random) {
            let index = Int.random(in: 0..<60, using: &random)
            let name = ["\(index)", "k\(index)", "é\(index)", "-\(index)", "0\(index)", "ε\(index)z"][index % 6]
            map.update(B.key(name), with: Self.randomNode(depth: depth + 1, &random))
        }
        return Node(children: map, priority: priority)
    }

    @Test(arguments: [1, 2, 3, 4]) func randomTreesRoundTrip(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        for round in 0..<200 {
            let node = Self.randomNode(depth: 0, &random)
            guard !node.isEmpty else { continue }
            let decoded = try Self.decoded(Self.encoded(node))
            #expect(decoded == node, "seed \(seed) round \(round)")
        }
    }

    @Test func leavesTakeTheirShortForms() {
        #expect(Self.encoded(Node(.bool(true))) == [1])
        #expect(Self.encoded(Node(.int(-1))) == [2, 1])
        #expect(Self.encoded(Node(.int(64))) == [2, 0x80, 0x01])
        #expect(Self.encoded(Node(.string("hé"))) == [4, 3, 0x68, 0xC3, 0xA9])
        #expect(Self.encoded(Node(.bool(false), priority: .int(1))) == [0x80, 2, 2])
        #expect(Self.encoded(B.object([("a", Node(.int(0)))])) == [5, 1, 1, 0x61, 2, 0])
    }

    @Test func everyTruncationThrows() throws {
        var random = SeededRandom(seed: 9)
        for _ in 0..<20 {
            let node = Self.randomNode(depth: 2, &random)
            guard !node.isEmpty else { continue }
            let bytes = Self.encoded(node)
            for end in 0..<bytes.count {
                #expect(throws: BinaryDecodingError.self) { try Self.decoded(Array(bytes[..<end])) }
            }
            #expect(throws: BinaryDecodingError.self) { try Self.decoded(bytes + [0]) }
        }
    }

    @Test func malformedBytesThrowWithTheirOffset() {
        let cases: [(bytes: [UInt8], detail: String)] = [
            ([9], "byte 0 is 9, not a node's tag"),
            ([0x81, 0], "byte 1 is 0, not a priority's tag"),
            ([3] + withUnsafeBytes(of: Double.nan.bitPattern.littleEndian, Array.init), "not finite"),
            ([5, 0], "the child count at byte 1 is 0"),
            ([5, 2, 1, 0x62, 1, 1, 0x61, 1], "the key at byte 5 does not follow the key before it"),
            ([5, 2, 1, 0x61, 1, 1, 0x61, 1], "the key at byte 5 does not follow the key before it"),
            ([5, 2, 2, 0x31, 0x30, 1, 1, 0x33, 1], "does not follow"),  // "10" then "3": integer keys sort numerically
            ([5, 1, 1, 0x2E, 1], "the key at byte 2 is not a valid key"),
            ([5, 1, 9, 0x61, 1], "truncated"),
            ([2] + [UInt8](repeating: 0xFF, count: 10) + [1], "overflows 64 bits"),
        ]
        for (bytes, detail) in cases {
            #expect {
                try Self.decoded(bytes)
            } throws: { error in
                (error as? BinaryDecodingError)?.detail.contains(detail) == true
            }
        }
        #expect(throws: Never.self) { try Self.decoded([5, 2, 1, 0x33, 1, 2, 0x31, 0x30, 1]) }  // "3" before "10"
        #expect(throws: Never.self) { try Self.decoded([5, 2, 2, 0x31, 0x30, 1, 1, 0x61, 1]) }  // "10" before "a"
    }

    @Test func nestingPastFirebasesDepthIsRefused() {
        var deep: [UInt8] = []
        for _ in 0..<100 { deep += [5, 1, 1, 0x61] }
        deep.append(1)
        #expect(throws: BinaryDecodingError.self) { try Self.decoded(deep) }
    }
}
