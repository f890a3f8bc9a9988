import HearthCore
import HearthTestKit
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// `ShardRouter.replacingParts` puts restored shards' parts into a namespace root: the result is the union of the
/// other shards' parts and the restored ones, every subtree that changed is listed for listeners, and a restored
/// part's spine leaves and priorities win.
@Suite struct ShardRouterRestoreTests {
    /// A root whose spine (depth 1) holds only objects, each with a few random children at the shard depth.
    private static func root(_ random: inout SeededRandom) -> Node {
        var root = Node.empty
        for top in ["a", "b", "c"] where Bool.random(using: &random) {
            for child in 0..<Int.random(in: 0...6, using: &random) {
                let value = Node(.int(Int64.random(in: 0...2, using: &random)))
                root.set(value, at: Fixture.path("\(top)/k\(child)"))
            }
        }
        return root
    }

    @Test(arguments: 0..<200 as Range<UInt64>)
    func replacingSomePartsGivesTheUnionWithThoseParts(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let router = ShardRouter(shardCount: 3, shardDepth: 2)
        let old = Self.root(&random)
        let new = Self.root(&random)
        let restored = Set((0..<3).filter { _ in Bool.random(using: &random) })
        let oldParts = router.split(old, namespace: "default")
        let newParts = router.split(new, namespace: "default")
        let expected = Node.union((0..<3).map { restored.contains($0) ? newParts[$0] : oldParts[$0] })
        var changes: [ResolvedMutation] = []
        let replaced = router.replacingParts(
            in: old, with: Dictionary(uniqueKeysWithValues: restored.map { ($0, newParts[$0]) }),
            namespace: "default", changes: &changes)
        #expect(replaced == expected, "seed \(seed): \(Fixture.json(replaced)) != \(Fixture.json(expected))")
        var changed: Set<Path> = []
        for top in ["a", "b", "c"] {
            for child in 0..<6 {
                let path = Fixture.path("\(top)/k\(child)")
                if old.node(at: path) != expected.node(at: path) { changed.insert(path) }
            }
        }
        #expect(Set(changes.map(\.path)) == changed, "seed \(seed)")
        for case .set(let path, let node) in changes { #expect(node == replaced.node(at: path)) }
    }

    @Test func aRestoredSpineLeafAndPriorityWin() throws {
        let router = ShardRouter(shardCount: 2, shardDepth: 2)
        var changes: [ResolvedMutation] = []
        let leaf = router.replacingParts(
            in: try Fixture.node(#"{"config":1}"#), with: [0: try Fixture.node(#"{"config":2}"#)],
            namespace: "default", changes: &changes)
        #expect(leaf == (try Fixture.node(#"{"config":2}"#)))
        #expect(changes == [.set(Fixture.path("config"), Node(.int(2)))])
        changes = []
        let owner = try #require(router.shard(namespace: "default", path: Fixture.path("a/x")))
        let part = try Fixture.node(#"{"a":{".priority":5,"x":1}}"#)
        let prioritised = router.replacingParts(
            in: try Fixture.node(#"{"a":{"x":1}}"#), with: [owner: part], namespace: "default", changes: &changes)
        #expect(prioritised.node(at: Fixture.path("a")).priority == .int(5))
        #expect(changes == [.setPriority(Fixture.path("a"), .int(5))])
    }
}
