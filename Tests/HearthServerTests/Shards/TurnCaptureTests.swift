import HearthCore
import HearthTestKit
import HearthWire
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// The write loop takes the subtrees a turn's entries touched once, at the turn's end: a hot subtree written many
/// times in one turn goes to the read view with the last write that touched it only, and the view, shown the whole
/// turn, holds the shard's own node; a listener still hears each write's own state.
@Suite struct TurnCaptureTests {
    /// A star of `posts/p<post>` by user `user`: sets the star and adds one to the count.
    private static func star(post: Int, user: Int) throws -> ShardWrite {
        ShardWrite(
            namespace: "default",
            mutations: [
                try Fixture.set("posts/p\(post)/stars/u\(user)", "true"),
                try Fixture.set("posts/p\(post)/starCount", #"{".sv":{"increment":1}}"#),
            ],
            now: 1)
    }

    /// `writes` applied by one shard, one record each, in one turn whose subtrees are taken at its end (or, when
    /// `perTurn` is false, as each entry applies); returns the records and the machine.
    private static func turn(_ writes: [ShardWrite], perTurn: Bool = true) throws -> (
        records: [[ShardApplied]], machine: ShardStateMachine
    ) {
        var machine = ShardStateMachine(shard: 0, spineDepth: 2)
        machine.defersSubtrees = perTurn
        var records: [[ShardApplied]] = []
        for write in writes {
            guard case .appended(_, let applied) = machine.write(write, conditions: []) else {
                Issue.record("the shard refused \(write.mutations.map(\.path))")
                return (records, machine)
            }
            records.append([applied])
        }
        if perTurn {
            let shard = machine
            var entries = records.flatMap { $0 }
            ShardApplied.captureTurn(&entries) { _, namespace in shard.trees[namespace] ?? .empty }
            records = entries.map { [$0] }
        }
        return (records, machine)
    }

    /// The subtrees of an entry's write.
    private static func subtrees(_ record: [ShardApplied]) -> [ShardSubtree]? {
        guard case .write(let change)? = record.first?.effect else { return nil }
        return change.subtrees
    }

    /// Eleven stars of one post and two of another in one turn: each post's node goes with its last star only, as
    /// the shard holds it at the turn's end, and the view shown the turn holds those very nodes.
    @Test func aSubtreeWrittenManyTimesInATurnIsTakenOnce() throws {
        let writes = try (0..<13).map { try Self.star(post: $0 % 5 == 4 ? 2 : 1, user: $0) }
        let (records, machine) = try Self.turn(writes)
        let hot = Fixture.path("posts/p1")
        let carrying = records.indices.filter { index in
            Self.subtrees(records[index])?.contains { subtree in subtree.node != nil } == true
        }
        let lastOfEach = ["posts/p1", "posts/p2"].compactMap { path in
            records.lastIndex { record in
                Self.subtrees(record)?.contains { subtree in subtree.path == Fixture.path(path) } == true
            }
        }
        #expect(carrying == lastOfEach.sorted(), "only each post's last star carries its node")
        for record in records {
            for subtree in Self.subtrees(record) ?? [] where subtree.node == nil {
                let taker = try #require(subtree.supersededBy, "a superseded subtree names the entry that carries it")
                let carrier = try #require(
                    records.last { Self.subtrees($0)?.contains { $0.path == subtree.path } == true })
                #expect(taker.shard == 0 && taker.index == carrier.first?.index)
            }
        }
        let taken = records.compactMap { record in Self.subtrees(record)?.first { $0.path == hot }?.node }
        #expect(taken.count == 1)
        #expect(taken.first?.isIdentical(to: machine.node(namespace: "default", at: hot)) == true)

        var view = ViewState(roots: [:], feed: CommitFeed(appliedIndex: [0]))
        _ = view.receive(records.flatMap { $0 })
        let root = view.roots["default"] ?? .empty
        #expect(root == (machine.trees["default"] ?? .empty))
        #expect(root.node(at: hot).isIdentical(to: machine.node(namespace: "default", at: hot)))
        #expect(root.node(at: Fixture.path("posts/p1/starCount")) == Node(.int(11)))
    }

    /// With a listener, every change of the turn shows the state its own write left (as when each entry's subtrees
    /// are taken as it applies), and the view still ends on the shard's nodes.
    @Test func aListenerHearsEachWritesOwnState() throws {
        let writes = try (0..<8).map { try Self.star(post: 1 + $0 % 2, user: $0) }
        let (records, machine) = try Self.turn(writes)
        let (reference, _) = try Self.turn(writes, perTurn: false)
        var registry = ListenRegistry()
        registry.add(EveryChange(), after: 0)
        var view = ViewState(roots: [:], feed: CommitFeed(appliedIndex: [0]))
        var expected = ViewState(roots: [:], feed: CommitFeed(appliedIndex: [0]))
        let heard = view.receive(records.flatMap { $0 }, registry: registry).map(\.change)
        let wanted = expected.receive(reference.flatMap { $0 }, registry: registry).map(\.change)
        try #require(heard.count == writes.count && wanted.count == writes.count)
        for (change, reference) in zip(heard, wanted) {
            #expect(change.oldRoot == reference.oldRoot)
            #expect(change.newRoot == reference.newRoot)
            #expect(change.mutations == reference.mutations)
        }
        let hot = Fixture.path("posts/p2")
        #expect(
            (view.roots["default"] ?? .empty).node(at: hot).isIdentical(to: machine.node(namespace: "default", at: hot))
        )
    }

    /// A turn delivered in two parts: the first part's superseded entries are shown by their own mutations, since
    /// the entry carrying the node is not among them, and the view after each part equals the shard's state then.
    /// Delivered joined, or as runs of records (the node's log, where the view takes the entry `captureTurn` named
    /// as carrying the subtree once it has arrived).
    @Test(arguments: [false, true])
    func aTurnSplitOverTwoDeliveriesShowsEachPartExactly(asRuns: Bool) throws {
        let writes = try (0..<6).map { try Self.star(post: 1, user: $0) }
        let (records, machine) = try Self.turn(writes)
        let (_, halfway) = try Self.turn(Array(writes.prefix(3)), perTurn: false)
        var view = ViewState(roots: [:], feed: CommitFeed(appliedIndex: [0]))
        let deliver = { (view: inout ViewState, records: ArraySlice<[ShardApplied]>) in
            if asRuns {
                _ = view.receive(runs: Array(records), registry: ListenRegistry())
            } else {
                _ = view.receive(records.flatMap { $0 })
            }
        }
        deliver(&view, records.prefix(3))
        #expect((view.roots["default"] ?? .empty) == (halfway.trees["default"] ?? .empty))
        deliver(&view, records.dropFirst(3))
        #expect((view.roots["default"] ?? .empty) == (machine.trees["default"] ?? .empty))
    }

    /// A spine write later in the turn replaces the subtrees below it that earlier entries touched: those go
    /// without a node (the view applies the earlier entries' mutations, then the spine write's), while a subtree
    /// elsewhere keeps its node, and the view ends on the shard's state.
    @Test func aLaterSpineWriteLeavesTheSubtreesBelowItWithoutNodes() throws {
        let spine = ShardWrite(
            namespace: "default", mutations: [try Fixture.set("posts", #"{"p1":{"starCount":7}}"#)], now: 1)
        let elsewhere = ShardWrite(
            namespace: "default", mutations: [try Fixture.set("users/u1/name", #""Ann""#)], now: 1)
        let writes = [try Self.star(post: 1, user: 1), elsewhere, try Self.star(post: 2, user: 2), spine]
        let (records, machine) = try Self.turn(writes)
        let nodes = records.map { record in Self.subtrees(record)?.map { $0.node != nil } }
        #expect(nodes == [[false], [true], [false], nil])
        let named = records.map { record in Self.subtrees(record)?.map { $0.supersededBy != nil } }
        #expect(named == [[false], [false], [false], nil], "a subtree a spine write replaces names no carrier")
        var view = ViewState(roots: [:], feed: CommitFeed(appliedIndex: [0]))
        _ = view.receive(records.flatMap { $0 })
        #expect((view.roots["default"] ?? .empty) == (machine.trees["default"] ?? .empty))
    }
}
