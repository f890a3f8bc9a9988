import HearthTestKit
import Testing

@testable import HearthCore
@testable import HearthDatabase
@testable import HearthServer

/// The read view takes the shards' subtrees instead of applying every write a second time: after random writes,
/// updates, increments and transactions it shows what applying every mutation showed, its listeners hear the same
/// changes, its roots are the union of the shards' trees, and a write under a wide node copies only its path.
@Suite struct OneTreeViewTests {
    /// How the log hands the history to the view.
    enum Delivery: CaseIterable {
        /// Whole records in log order, a few at a time, with a listener on everything (a single node).
        case logOrder
        /// The same, with nobody listening, so the view edits its roots in place (and leaves what a turn
        /// superseded to the entry `captureTurn` named).
        case logOrderUnheard
        /// The same, the records of each batch joined into one, as a batch of one shard's or a test's arrives: the
        /// view looks up which later entry carries a superseded subtree instead.
        case logOrderJoined
        /// Each shard's entries in its order, the shards interleaved at random (a cluster member).
        case perShard
    }

    /// `applied` as the view received it before shards handed out their subtrees.
    private static func withoutSubtrees(_ applied: ShardApplied) -> ShardApplied {
        var applied = applied
        switch applied.effect {
        case .write(var change):
            change.subtrees = nil
            applied.effect = .write(change)
        case .finished(let transaction, let decision, var part?):
            part.change.subtrees = nil
            applied.effect = .finished(transaction, decision: decision, committed: part)
        default:
            break
        }
        return applied
    }

    /// The batches the view receives, each as runs of entries (a record's, in log order; one run otherwise).
    private static func batches(
        _ history: RandomShardHistory, _ delivery: Delivery, using random: inout SeededRandom
    ) -> [[[ShardApplied]]] {
        var batches: [[[ShardApplied]]] = []
        switch delivery {
        case .logOrder, .logOrderUnheard, .logOrderJoined:
            var records = history.records[...]
            while !records.isEmpty {
                let count = min(records.count, Int.random(in: 1...4, using: &random))
                let runs = Array(records.prefix(count))
                batches.append(delivery == .logOrderJoined ? [runs.flatMap { $0 }] : runs)
                records = records.dropFirst(count)
            }
        case .perShard:
            var streams = history.entriesByShard.map { $0[...] }
            while let shard = streams.indices.filter({ !streams[$0].isEmpty }).randomElement(using: &random) {
                let count = min(streams[shard].count, Int.random(in: 1...3, using: &random))
                batches.append([Array(streams[shard].prefix(count))])
                streams[shard] = streams[shard].dropFirst(count)
            }
        }
        return batches
    }

    /// Per seed and delivery: a view taking the shards' subtrees and one applying every mutation (as the view did
    /// before) show the same roots after every batch, and their listeners hear the same changes with the same old
    /// and new roots; at the end the view is the union of the shards' trees and, fed in log order, shares their
    /// subtrees (fed shard by shard, the last entries may all be shown out of their shards' order).
    @Test(arguments: 0..<30 as Range<UInt64>, Delivery.allCases)
    func theViewShowsWhatApplyingEveryMutationShowed(seed: UInt64, delivery: Delivery) throws {
        try Self.check(seed: seed, delivery: delivery, turns: false)
    }

    /// The same, with the history made in turns of the write loop, whose subtrees are taken once per turn: an
    /// entry whose subtree a later entry of its turn carries is shown by that entry's node when both are shown
    /// together and nobody listens, and by its own mutations otherwise (a turn split over deliveries, a listener).
    @Test(arguments: 0..<30 as Range<UInt64>, Delivery.allCases)
    func theViewShowsWhatApplyingEveryMutationShowedWhenSubtreesAreTakenPerTurn(seed: UInt64, delivery: Delivery)
        throws
    {
        try Self.check(seed: seed, delivery: delivery, turns: true)
    }

    private static func check(seed: UInt64, delivery: Delivery, turns: Bool) throws {
        let router = ShardRouter(shardCount: 3, shardDepth: 2)
        var history = RandomShardHistory(router: router, seed: seed, turns: turns)
        try history.run(120)
        var random = SeededRandom(seed: seed ^ 0x5eed)
        var registry = ListenRegistry()
        if delivery == .logOrder || delivery == .perShard { registry.add(EveryChange(), after: 0) }
        let start = CommitFeed(appliedIndex: [0, 0, 0])
        var taking = ViewState(roots: [:], feed: start)
        var applying = ViewState(roots: [:], feed: start)
        for (number, runs) in Self.batches(history, delivery, using: &random).enumerated() {
            // Runs as the node's log hands them over; one shard's batch as a cluster member's log does.
            let heard =
                delivery == .perShard
                ? taking.receive(runs.flatMap { $0 }, registry: registry).map(\.change)
                : taking.receive(runs: runs, registry: registry).map(\.change)
            let batch = runs.flatMap { $0 }
            let expected = applying.receive(batch.map(Self.withoutSubtrees), registry: registry).map(\.change)
            let context = Comment("seed \(seed), \(delivery), turns \(turns), batch \(number)")
            try #require(taking.roots == applying.roots, context)
            try #require(heard.count == expected.count, context)
            for (change, reference) in zip(heard, expected) {
                #expect(change.namespace == reference.namespace, context)
                #expect(change.mutations == reference.mutations, context)
                #expect(change.sequence == reference.sequence, context)
                #expect(change.oldRoot == reference.oldRoot, context)
                #expect(change.newRoot == reference.newRoot, context)
            }
        }
        #expect(taking.feed.isQuiescent)
        #expect((taking.roots["default"] ?? .empty) == history.union(), "seed \(seed), \(delivery)")
        if delivery != .perShard {
            #expect(Self.sharedSubtrees(taking, history) > 0, "the view shares the shards' nodes (seed \(seed))")
        }
    }

    /// How many of the shards' subtrees at the shard depth the view holds as the very same nodes.
    private static func sharedSubtrees(_ view: ViewState, _ history: RandomShardHistory) -> Int {
        let root = view.roots["default"] ?? .empty
        var shared = 0
        for machine in history.machines {
            let tree = machine.trees["default"] ?? .empty
            for (top, spine) in tree.children {
                for (key, subtree) in spine.children {
                    let path = Path(keys: [top, key])
                    if root.node(at: path).isIdentical(to: subtree) { shared += 1 }
                }
            }
        }
        return shared
    }

    /// The B+tree nodes of the children of `node`, by identity (none for a small map).
    private static func treeNodes(_ node: Node) -> Set<ObjectIdentifier> {
        guard case .tree(let root) = node.children.storage else { return [] }
        var nodes: Set<ObjectIdentifier> = []
        var stack = [root]
        while let next = stack.popLast() {
            nodes.insert(ObjectIdentifier(next))
            if !next.isLeaf { stack += (0..<next.fill).map(next.child(at:)) }
        }
        return nodes
    }

    /// A write under a node of 10,000 children that the view shares with its shard copies only the path to the
    /// change: the shard's new version of the wide node shares all but one B+tree node per level (and the one a
    /// split adds) with the version the view showed, and the view, once it shows the write, holds the shard's new version itself.
    @Test func aWriteUnderAWideNodeCopiesOnlyItsPath() throws {
        let router = ShardRouter(shardCount: 2, shardDepth: 2)
        let stars = Fixture.path("posts/p1/stars")
        let shard = try #require(router.shard(namespace: "default", path: stars))
        var machine = ShardStateMachine(shard: shard, spineDepth: 2)
        var view = ViewState(roots: [:], feed: CommitFeed(appliedIndex: [0, 0]))
        let wide = "{" + (0..<10_000).map { #""u\#($0)":true"# }.joined(separator: ",") + "}"
        let writes = [
            [try Fixture.set("posts/p1/stars", wide)],
            [
                try Fixture.set("posts/p1/stars/u10000", "true"),
                try Fixture.set("posts/p1/starCount", #"{".sv":{"increment":1}}"#),
            ],
        ]
        var shown: [Node] = []
        for mutations in writes {
            let write = ShardWrite(namespace: "default", mutations: mutations, now: 0)
            guard case .appended(_, let applied) = machine.write(write, conditions: []) else {
                Issue.record("the shard refused the write")
                return
            }
            let before = shown.last.map(Self.treeNodes) ?? []
            let after = Self.treeNodes(machine.node(namespace: "default", at: stars))
            if !before.isEmpty {
                let copied = after.subtracting(before).count
                #expect(after.count > 300, "a wide node's map is a B+tree of many nodes")
                #expect(copied <= 6, "the shard copied \(copied) of the \(after.count) nodes of the wide map")
            }
            _ = view.receive([applied])
            let visible = (view.roots["default"] ?? .empty).node(at: stars)
            #expect(visible.isIdentical(to: machine.node(namespace: "default", at: stars)))
            shown.append(visible)
        }
        #expect(shown.last?.childCount == 10_001)
        #expect((view.roots["default"] ?? .empty).node(at: Fixture.path("posts/p1/starCount")) == Node(.int(1)))
    }
}
