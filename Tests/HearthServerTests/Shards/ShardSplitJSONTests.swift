import HearthCore
import HearthTestKit
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// `ShardRouter.split(json:at:namespace:)` cuts a client's JSON text by copying bytes: each part's text must parse
/// to exactly the node `split` cuts from the parsed value, whatever the text's spacing, duplicates and escapes.
@Suite struct ShardSplitJSONTests {
    @Test(arguments: [31, 32, 33] as [UInt64])
    func everyPartsTextParsesToThePartSplitCuts(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        var cut = 0
        for round in 0..<300 {
            let router = ShardRouter(
                shardCount: Int.random(in: 1...6, using: &random), shardDepth: Int.random(in: 1...3, using: &random))
            let depth = Int.random(in: 0..<router.shardDepth, using: &random)
            let path = Path(
                keys: (0..<depth).map { _ in Key(unchecked: ["a", "b"][Int.random(in: 0..<2, using: &random)]) })
            let text = Self.randomJSON(&random, depth: 4)
            let bytes = (Bool.random(using: &random) ? [0xEF, 0xBB, 0xBF] : []) + Array(text.utf8)
            guard let value = try? WriteValue.parseWrite(bytes, depth: path.count) else { continue }
            let context = "seed \(seed) round \(round): \(text) at \(path), depth \(router.shardDepth)"
            guard let texts = router.split(json: bytes, at: path, namespace: "default") else { continue }
            cut += 1
            let parts = router.split(value.node, at: path, namespace: "default")
            #expect(texts.count == router.shardCount, "\(context)")
            for (shard, partText) in texts.enumerated() {
                let parsed = try WriteValue.parseWrite(partText, depth: path.count)
                #expect(!parsed.hasServerValues, "\(context)")
                #expect(
                    parsed.node == parts[shard],
                    "\(context): shard \(shard) got \(String(decoding: partText, as: UTF8.self))")
            }
        }
        #expect(cut > 150, "most random texts have nothing on the spine that stops copying")
    }

    @Test func anImportIsCutIntoOwnedMembersWithTheSpineInEveryPart() throws {
        let router = ShardRouter(shardCount: 4, shardDepth: 2)
        let text = #"{ "users" : {"u1":{"n":1}, "u2":[1,2], "u3":"x"}, "title":"t", ".priority":7 }"#
        let texts = try #require(router.split(json: Array(text.utf8), at: .root, namespace: "default"))
        for user in ["u1", "u2", "u3"] {
            let owner = try #require(router.shard(namespace: "default", path: Fixture.path("users/\(user)")))
            for (shard, part) in texts.enumerated() {
                let node = try WriteValue.parseWrite(part, depth: 0).node
                #expect(node.child(Key(unchecked: "title")) == Node(.string("t")), "the spine leaf is copied")
                #expect(node.priority == .int(7), "the spine priority is copied")
                #expect(node.node(at: Fixture.path("users/\(user)")).isEmpty == (shard != owner))
            }
        }
    }

    @Test func spineArraysEscapedSpineKeysAndDeepPathsAreLeftToEncoding() {
        let router = ShardRouter(shardCount: 4, shardDepth: 2)
        #expect(router.split(json: Array(#"{"users":[{"n":1}]}"#.utf8), at: .root, namespace: "default") == nil)
        #expect(router.split(json: Array(#"[{"n":1}]"#.utf8), at: .root, namespace: "default") == nil)
        #expect(router.split(json: Array(#"{"us\u0065rs":{"a":1}}"#.utf8), at: .root, namespace: "default") == nil)
        #expect(router.split(json: Array(#"{"x":{".value":{"a":1}}}"#.utf8), at: .root, namespace: "default") == nil)
        #expect(router.split(json: Array("{}".utf8), at: Fixture.path("users/u1"), namespace: "default") == nil)
        let escapedBelow = #"{"users":{"u1":{"k\u0065y":"v\"\\"}}}"#
        #expect(router.split(json: Array(escapedBelow.utf8), at: .root, namespace: "default") != nil)
    }

    /// Random JSON text: objects with duplicate keys, arrays, escapes, priorities, `.value`, nulls and spacing.
    private static func randomJSON(_ random: inout SeededRandom, depth: Int) -> String {
        let space = [" ", "", "\n\t"][Int.random(in: 0..<3, using: &random)]
        switch Int.random(in: 0..<(depth > 0 ? 10 : 6), using: &random) {
        case 0: return "null"
        case 1: return ["true", "false"][Int.random(in: 0..<2, using: &random)]
        case 2: return String(Int.random(in: -9...9, using: &random))
        case 3: return ["1.5", "-2e3", "0.25"][Int.random(in: 0..<3, using: &random)]
        case 4: return [#""s""#, #""q\"\\,}]""#, #""\u00e9""#][Int.random(in: 0..<3, using: &random)]
        case 5:
            let priority = ["1", #""p""#][Int.random(in: 0..<2, using: &random)]
            return #"{"\#(space)".value":"v",".priority":\#(priority)}"#
        case 6:
            let elements = (0..<Int.random(in: 0...3, using: &random)).map { _ in
                Self.randomJSON(&random, depth: depth - 1)
            }
            return "[" + elements.joined(separator: "," + space) + "]"
        default:
            var members: [String] = []
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                let key: String
                switch Int.random(in: 0..<8, using: &random) {
                case 0: key = ".priority"
                case 1: key = "k\\u0031"
                default: key = ["a", "b", "c", "d", "é"][Int.random(in: 0..<5, using: &random)]
                }
                let value =
                    key == ".priority"
                    ? ["3", #""z""#, "null"][Int.random(in: 0..<3, using: &random)]
                    : Self.randomJSON(&random, depth: depth - 1)
                members.append("\"\(key)\"\(space):\(space)\(value)")
            }
            return "{" + space + members.joined(separator: space + "," + space) + space + "}"
        }
    }
}
