import HearthCore
import HearthTestKit
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// `ShardRouter.split` cuts a value along shard lines and `Node.union` joins the parts: the round trip must give the
/// value back, and every part must carry the spine's leaves and priorities.
@Suite struct ShardSplitUnionTests {
    @Test(arguments: [21, 22, 23] as [UInt64])
    func theUnionOfAValuesPartsIsTheValue(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        for round in 0..<200 {
            let router = ShardRouter(
                shardCount: Int.random(in: 1...6, using: &random), shardDepth: Int.random(in: 1...3, using: &random))
            let depth = Int.random(in: 0...router.shardDepth, using: &random)
            let path = Path(
                keys: (0..<depth).map { _ in Key(unchecked: ["a", "b"][Int.random(in: 0..<2, using: &random)]) })
            let value = try ValueSpec.random(&random, depth: 5).writeValue(at: path).resolved(existing: .empty, now: 9)
            let parts = router.split(value, at: path, namespace: "default")
            let context = "seed \(seed) round \(round): \(Fixture.json(value)) at \(path), depth \(router.shardDepth)"
            #expect(parts.count == router.shardCount, "\(context)")
            #expect(Node.union(parts) == value, "\(context)")
            Self.checkSpineCopies(value, parts: parts, at: path, relative: .root, router: router, context: context)
        }
    }

    /// Every spine leaf of `value` is in every part; every spine priority is on every part that has the node.
    private static func checkSpineCopies(
        _ value: Node, parts: [Node], at base: Path, relative: Path, router: ShardRouter, context: String
    ) {
        let absolute = base.appending(relative)
        guard router.isSpine(absolute), !value.isEmpty else { return }
        for (shard, part) in parts.enumerated() {
            let copy = part.node(at: relative)
            if value.isLeaf {
                #expect(copy == value, "\(context): shard \(shard) lacks the spine leaf at \(absolute)")
            } else if !copy.isEmpty {
                #expect(copy.priority == value.priority, "\(context): shard \(shard) priority at \(absolute)")
            }
        }
        for (key, child) in value.children {
            Self.checkSpineCopies(
                child, parts: parts, at: base, relative: relative.appending(key), router: router, context: context)
        }
    }

    @Test func aDeepValueGoesWholeToItsShard() throws {
        let router = ShardRouter(shardCount: 4, shardDepth: 2)
        let path = Fixture.path("posts/p1/stars")
        let value = try Fixture.node(#"{"u1":true,"u2":true}"#)
        let parts = router.split(value, at: path, namespace: "default")
        let owner = try #require(router.shard(namespace: "default", path: path))
        #expect(parts[owner] == value)
        #expect(parts.enumerated().allSatisfy { $0.offset == owner || $0.element.isEmpty })
        #expect(Node.union(parts) == value)
    }

    @Test func unionOfNothingIsEmpty() {
        #expect(Node.union([]) == .empty)
        #expect(Node.union([.empty, .empty]) == .empty)
    }
}
