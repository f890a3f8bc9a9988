import HearthCore
import HearthWire
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// The feed that turns every shard's committed entries into read-view updates: single-shard writes flow through, a
/// transaction appears all at once, nothing waits in a cycle, and overlapping changes keep their order.
@Suite struct CommitFeedTests {
    private static func set(_ path: String, _ value: Int64) -> ResolvedMutation {
        .set(Fixture.path(path), Node(.int(value)))
    }

    private static func write(_ shard: Int, _ index: UInt64, _ mutations: ResolvedMutation...) -> ShardApplied {
        ShardApplied(
            shard: shard, index: index,
            effect: .write(ShardChange(namespace: "default", mutations: mutations, increments: [:])))
    }

    private static func prepared(_ shard: Int, _ index: UInt64, _ transaction: UInt64, participants: [Int] = [0, 1])
        -> ShardApplied
    {
        let intent = ShardIntent(
            write: ShardWrite(namespace: "default", mutations: [], now: 0),
            plan: ShardTransactionPlan(anchor: participants[participants.count - 1], participants: participants))
        return ShardApplied(shard: shard, index: index, effect: .prepared(TransactionID(rawValue: transaction), intent))
    }

    /// A committed part of `transaction` (the anchor's, the highest participant's, when `decision` is set).
    private static func finished(
        _ shard: Int, _ index: UInt64, _ transaction: UInt64, decision: Bool? = nil, participants: [Int] = [0, 1],
        _ mutations: ResolvedMutation...
    ) -> ShardApplied {
        let part = ShardTransactionPart(
            participants: participants, change: ShardChange(namespace: "default", mutations: mutations, increments: [:])
        )
        return ShardApplied(
            shard: shard, index: index,
            effect: .finished(TransactionID(rawValue: transaction), decision: decision, committed: part))
    }

    private static func paths(_ updates: [CommitFeed.Update]) -> [[String]] {
        updates.map { $0.mutations.map(\.path.slashless) }
    }

    @Test func singleShardWritesFlowThroughAtOnce() {
        var feed = CommitFeed(appliedIndex: [0, 4])
        #expect(Self.paths(feed.receive([Self.write(1, 5, Self.set("a/x", 1))])) == [["a/x"]])
        #expect(Self.paths(feed.receive([Self.write(0, 1, Self.set("b/x", 2))])) == [["b/x"]])
        #expect(feed.appliedIndex == [1, 5])
        #expect(feed.isQuiescent)
    }

    @Test func aTransactionIsShownOnlyWhenEveryPartIsInAndThenAllAtOnce() {
        var feed = CommitFeed(appliedIndex: [0, 0])
        #expect(feed.receive([Self.prepared(0, 1, 7)]).isEmpty)
        #expect(feed.intents[0][TransactionID(rawValue: 7)] != nil)
        #expect(feed.receive([Self.finished(1, 1, 7, decision: true, Self.set("b/y", 2))]).isEmpty)
        #expect(!feed.isQuiescent)
        #expect(feed.appliedIndex == [1, 0])
        #expect(feed.decisions[1] == [TransactionID(rawValue: 7): true], "recorded as soon as the decision arrives")
        let updates = feed.receive([Self.finished(0, 2, 7, Self.set("a/x", 1))])
        #expect(Self.paths(updates) == [["a/x", "b/y"]])
        #expect(feed.isQuiescent)
        #expect(feed.appliedIndex == [2, 1])
        #expect(feed.intents.allSatisfy { $0.isEmpty })
        #expect(feed.decisions[1] == [TransactionID(rawValue: 7): true])
    }

    @Test func partsCommittedTogetherArriveAsOneAndAreShownAtOnce() {
        var feed = CommitFeed(appliedIndex: [0, 0])
        let together = [
            Self.finished(0, 1, 7, Self.set("a/x", 1)), Self.finished(1, 1, 7, decision: true, Self.set("b/y", 2)),
        ]
        #expect(Self.paths(feed.receive(together)) == [["a/x", "b/y"]])
        #expect(feed.isQuiescent)
        #expect(feed.appliedIndex == [1, 1])
        #expect(feed.decisions[1] == [TransactionID(rawValue: 7): true])
    }

    @Test func partsCommittedTogetherThatMustWaitStillHoldUpWhatOverlapsThem() {
        var feed = CommitFeed(appliedIndex: [0, 0, 0])
        // Transaction 1 (shards 0, 2) holds `a/x` in shard 0 until its part in shard 2 arrives.
        #expect(feed.receive([Self.finished(0, 1, 1, participants: [0, 2], Self.set("a/x", 1))]).isEmpty)
        let together = [
            Self.finished(0, 2, 2, Self.set("a/x/n", 2)), Self.finished(1, 1, 2, decision: true, Self.set("b/y", 3)),
        ]
        #expect(feed.receive(together).isEmpty, "its part in shard 0 overlaps transaction 1")
        #expect(feed.receive([Self.write(0, 3, Self.set("a/x/n/m", 4))]).isEmpty, "behind the waiting part")
        let updates = feed.receive([Self.finished(2, 1, 1, decision: true, participants: [0, 2], Self.set("c/z", 5))])
        #expect(Self.paths(updates) == [["a/x", "c/z"], ["b/y", "a/x/n"], ["a/x/n/m"]])
        #expect(feed.isQuiescent)
    }

    @Test func aBatchShowsWhatItsEntriesOneAtATimeWould() {
        let entries = [
            Self.finished(0, 1, 1, participants: [0, 2], Self.set("a/x", 1)),
            Self.finished(0, 2, 2, Self.set("a/x/n", 2)), Self.finished(1, 1, 2, decision: true, Self.set("b/y", 3)),
            Self.write(1, 2, Self.set("b/z", 4)),
            Self.finished(1, 3, 3, participants: [1, 2], Self.set("b/y", 5)),
            Self.finished(2, 1, 3, decision: true, participants: [1, 2], Self.set("c/y", 6)),
            Self.write(0, 3, Self.set("a/w", 7)),
            Self.finished(2, 2, 1, decision: true, participants: [0, 2], Self.set("c/z", 8)),
        ]
        var single = CommitFeed(appliedIndex: [0, 0, 0])
        let oneAtATime = entries.flatMap { single.receive([$0]) }
        var batched = CommitFeed(appliedIndex: [0, 0, 0])
        let together = batched.receive(entries)
        #expect(Self.paths(together) == Self.paths(oneAtATime))
        #expect(Self.paths(together).count == 5)
        #expect(batched.isQuiescent && single.isQuiescent)
        #expect(batched.appliedIndex == single.appliedIndex)
    }

    /// Runs of entries (as the single node's log hands them over, never joined) show what the same entries joined
    /// in one batch show, in the same order, including a transaction whose parts lie in two runs.
    @Test func runsShowWhatTheirEntriesJoinedWould() {
        let runs = [
            [Self.finished(0, 1, 1, participants: [0, 2], Self.set("a/x", 1))],
            [
                Self.finished(0, 2, 2, Self.set("a/x/n", 2)),
                Self.finished(1, 1, 2, decision: true, Self.set("b/y", 3)), Self.write(1, 2, Self.set("b/z", 4)),
            ],
            [],
            [
                Self.finished(1, 3, 3, participants: [1, 2], Self.set("b/y", 5)),
                Self.finished(2, 1, 3, decision: true, participants: [1, 2], Self.set("c/y", 6)),
            ],
            [Self.finished(2, 2, 1, decision: true, participants: [0, 2], Self.set("c/z", 8))],
        ]
        var joined = CommitFeed(appliedIndex: [0, 0, 0])
        let together = joined.receive(runs.flatMap { $0 })
        var separate = CommitFeed(appliedIndex: [0, 0, 0])
        var fromRuns: [CommitFeed.Update] = []
        _ = separate.receive(runs: runs, into: &fromRuns)
        #expect(Self.paths(fromRuns) == Self.paths(together))
        #expect(Self.paths(fromRuns).count == 4)
        #expect(separate.isQuiescent && joined.isQuiescent)
        #expect(separate.appliedIndex == joined.appliedIndex)
        #expect(separate.decisions == joined.decisions)
    }

    @Test func nonOverlappingTransactionsArrivingInOppositeOrdersAreBothShown() {
        var feed = CommitFeed(appliedIndex: [0, 0])
        #expect(feed.receive([Self.finished(1, 1, 1, decision: true, Self.set("a/x", 1))]).isEmpty)
        #expect(feed.receive([Self.finished(1, 2, 2, decision: true, Self.set("c/x", 3))]).isEmpty)
        #expect(Self.paths(feed.receive([Self.finished(0, 1, 2, Self.set("d/x", 4))])) == [["c/x", "d/x"]])
        #expect(feed.appliedIndex == [1, 0], "transaction 1 still holds shard 1 at its first entry")
        #expect(Self.paths(feed.receive([Self.finished(0, 2, 1, Self.set("b/x", 2))])) == [["a/x", "b/x"]])
        #expect(feed.isQuiescent)
        #expect(feed.appliedIndex == [2, 2])
    }

    @Test func anOverlappingWriteWaitsBehindAPendingTransactionAndOthersPassIt() {
        var feed = CommitFeed(appliedIndex: [0, 0])
        #expect(feed.receive([Self.finished(1, 1, 5, decision: true, Self.set("a/x", 1))]).isEmpty)
        #expect(feed.receive([Self.write(1, 2, Self.set("a/x/n", 2))]).isEmpty, "overlaps the pending transaction")
        #expect(Self.paths(feed.receive([Self.write(1, 3, Self.set("a/y", 3))])) == [["a/y"]], "overlaps nothing")
        #expect(feed.appliedIndex == [0, 0])
        let updates = feed.receive([Self.finished(0, 1, 5, Self.set("b/x", 4))])
        #expect(Self.paths(updates) == [["a/x", "b/x"], ["a/x/n"]], "the transaction first, then the write behind it")
        #expect(feed.appliedIndex == [1, 3])
        #expect(feed.isQuiescent)
    }

    @Test func anAbortedTransactionShowsNothingAndKeepsItsDecisionWhileAPartIsPrepared() {
        var feed = CommitFeed(appliedIndex: [0, 0])
        _ = feed.receive([Self.prepared(0, 1, 8)])
        let abort = ShardApplied(
            shard: 1, index: 1, effect: .finished(TransactionID(rawValue: 8), decision: false, committed: nil))
        #expect(feed.receive([abort]).isEmpty)
        #expect(feed.isQuiescent, "an abort has nothing to wait for")
        feed.pruneDecisions()
        #expect(feed.decisions[1] == [TransactionID(rawValue: 8): false], "shard 0 still needs the decision")
        let finish = ShardApplied(
            shard: 0, index: 2, effect: .finished(TransactionID(rawValue: 8), decision: nil, committed: nil))
        #expect(feed.receive([finish]).isEmpty)
        feed.pruneDecisions()
        #expect(feed.decisions.allSatisfy { $0.isEmpty })
        #expect(feed.intents.allSatisfy { $0.isEmpty })
    }

    @Test func overlappingTransactionsAreShownInTheOrderTheirLocksGaveThem() {
        var feed = CommitFeed(appliedIndex: [0, 0, 0])
        // Transaction 1 (shards 0, 1) finishes in shard 0 before transaction 2 (shards 0, 2) prepares there.
        _ = feed.receive([Self.prepared(0, 1, 1)])
        _ = feed.receive([Self.finished(0, 2, 1, Self.set("a/x", 1))])
        _ = feed.receive([Self.prepared(0, 3, 2, participants: [0, 2])])
        _ = feed.receive([Self.finished(0, 4, 2, participants: [0, 2], Self.set("a/x", 2))])
        #expect(
            feed.receive([Self.finished(2, 1, 2, decision: true, participants: [0, 2], Self.set("c/x", 3))]).isEmpty)
        let updates = feed.receive([Self.finished(1, 1, 1, decision: true, Self.set("b/x", 4))])
        #expect(Self.paths(updates) == [["a/x", "b/x"], ["a/x", "c/x"]])
        guard let last = updates.last, case .set(_, let node) = last.mutations.first else {
            Issue.record("expected two updates")
            return
        }
        #expect(node == Node(.int(2)), "the later transaction's value wins")
    }

    @Test func mergeJoinsSpinePartsAndAppliesShallowPathsFirst() throws {
        let partA: [ResolvedMutation] = [
            .set(Fixture.path("deep/x/n"), Node(.int(1))),
            .setPriority(Fixture.path("posts"), .int(3)),
            .set(Fixture.path("posts"), try Fixture.node(#"{"pA":{"n":1},".priority":3}"#)),
        ]
        let partB: [ResolvedMutation] = [
            .set(Fixture.path("posts"), try Fixture.node(#"{"pB":{"n":2},".priority":3}"#)),
            .setPriority(Fixture.path("posts"), .int(3)),
            .set(.root, .empty),
        ]
        let merged = CommitFeed.merge([partA, partB])
        #expect(merged.map(\.path.slashless) == ["", "posts", "posts", "deep/x/n"])
        #expect(
            merged[1] == .set(Fixture.path("posts"), try Fixture.node(#"{"pA":{"n":1},"pB":{"n":2},".priority":3}"#)))
        #expect(merged[2] == .setPriority(Fixture.path("posts"), .int(3)), "a set comes before a priority on its path")
    }

    @Test func mergeTakesAKnownSpineValueInsteadOfJoiningItsParts() throws {
        let whole = try Fixture.node(#"{"pA":{"n":1},"pB":{"n":2}}"#)
        let partA: [ResolvedMutation] = [.set(Fixture.path("posts"), try Fixture.node(#"{"pA":{"n":1}}"#))]
        let partB: [ResolvedMutation] = [
            .set(Fixture.path("posts"), try Fixture.node(#"{"pB":{"n":2}}"#)), .set(Fixture.path("deep/x"), .empty),
        ]
        let merged = CommitFeed.merge([partA, partB], spineValues: [Fixture.path("posts"): whole])
        #expect(merged.count == 2)
        #expect(merged.first == .set(Fixture.path("posts"), whole))
        #expect(merged == CommitFeed.merge([partA, partB]), "the known value is what joining gives")
    }

    @Test func aTransactionShowsTheSpineValueItsAnchorCarries() throws {
        let whole = try Fixture.node(#"{"pA":{"n":1},"pB":{"n":2}}"#)
        let posts = Fixture.path("posts")
        var feed = CommitFeed(appliedIndex: [0, 0])
        _ = feed.receive([Self.prepared(0, 1, 9)])
        var anchor = Self.finished(1, 1, 9, decision: true, .set(posts, try Fixture.node(#"{"pB":{"n":2}}"#)))
        if case .finished(let id, let decision, var part?) = anchor.effect {
            part.spineValues = [posts: whole]
            anchor.effect = .finished(id, decision: decision, committed: part)
        }
        #expect(feed.receive([anchor]).isEmpty, "the other part is not in yet")
        let updates = feed.receive([Self.finished(0, 2, 9, .set(posts, try Fixture.node(#"{"pA":{"n":1}}"#)))])
        #expect(updates.count == 1)
        #expect(updates.first?.mutations == [.set(posts, whole)])
    }

    /// A committed part of `transaction` that carries its shard's subtrees (or none), bare increments and, for the
    /// anchor, spine values: the fields a view update is built from.
    private static func carrying(
        _ shard: Int, _ transaction: UInt64, subtrees: [ShardSubtree]?, increments: [Path: LeafValue],
        spineValues: [Path: Node] = [:], _ mutations: ResolvedMutation...
    ) -> ShardApplied {
        let change = ShardChange(
            namespace: "default", mutations: mutations, increments: increments, subtrees: subtrees)
        let part = ShardTransactionPart(participants: [0, 1], change: change, spineValues: spineValues)
        return ShardApplied(
            shard: shard, index: 1,
            effect: .finished(TransactionID(rawValue: transaction), decision: shard == 1 ? true : nil, committed: part))
    }

    /// What an update carries, in a comparable form.
    private static func described(_ update: CommitFeed.Update) -> String {
        let subtrees = update.subtrees.map { $0.map { "\($0.path.slashless)=\(String(describing: $0.node))" } }
        return "\(update.namespace) \(update.parts) spine \(update.spineValues?.count ?? -1) "
            + "increments \(update.increments.sorted { $0.key.slashless < $1.key.slashless }) "
            + "subtrees \(String(describing: subtrees))"
    }

    /// A transaction whose parts arrive together is shown at once (read in place from the batch) with the update the
    /// queued path builds when its parts arrive one by one: the same parts in participant order, spine values,
    /// subtrees (joined only when every part carries its own) and increments (only when the subtrees do not go
    /// along), and the feed tells the view whether the subtrees went along. Every part carrying its subtrees, the
    /// update reads them from the entries (`Update.init(shown:namespace:)`), in participant order whatever order
    /// the parts arrived in, and reads each subtree and path in place as it would from the joined lists.
    @Test(arguments: [false, true])
    func aTransactionShownAtOnceMakesTheUpdateTheQueuedPathMakes(arrivingReversed: Bool) throws {
        let spine = Fixture.path("posts")
        let whole = try Fixture.node(#"{"pA":{"n":1},"pB":{"n":2}}"#)
        let cases: [(first: [ShardSubtree]?, second: [ShardSubtree]?)] = [
            (
                [ShardSubtree(path: Fixture.path("a/x"), node: Node(.int(1)))],
                [ShardSubtree(path: Fixture.path("b/y"), node: Node(.int(2))), ShardSubtree(path: Fixture.path("b/z"))]
            ),
            (nil, [ShardSubtree(path: Fixture.path("b/y"), node: Node(.int(2)))]),
            ([ShardSubtree(path: Fixture.path("a/x"), node: Node(.int(1)))], nil),
            (nil, nil),
        ]
        for (first, second) in cases {
            let parts = [
                Self.carrying(
                    0, 7, subtrees: first, increments: [Fixture.path("a/n"): .int(3)], Self.set("a/x", 1),
                    Self.set("a/n", 3)),
                Self.carrying(
                    1, 7, subtrees: second, increments: [Fixture.path("b/n"): .int(4)], spineValues: [spine: whole],
                    Self.set("b/y", 2), Self.set("b/n", 4)),
            ]
            var atOnce = CommitFeed(appliedIndex: [0, 0])
            var shown: [CommitFeed.Update] = []
            let kept = atOnce.receive(runs: [arrivingReversed ? Array(parts.reversed()) : parts], into: &shown)
            var queued = CommitFeed(appliedIndex: [0, 0])
            var oneByOne: [CommitFeed.Update] = []
            _ = queued.receive(runs: [[parts[1]], [parts[0]]], into: &oneByOne)
            #expect(shown.count == 1 && oneByOne.count == 1)
            #expect(shown.map(Self.described) == oneByOne.map(Self.described))
            #expect(kept == ((first == nil) == (second == nil)), "subtrees go along when every part carries them")
            #expect((shown.first?.subtrees == nil) == (first == nil || second == nil))
            #expect(shown.first?.increments.isEmpty == (first != nil && second != nil))
            #expect(atOnce.isQuiescent && queued.isQuiescent)
            #expect(atOnce.appliedIndex == queued.appliedIndex)
            #expect(atOnce.decisions == queued.decisions)
            if let update = shown.first {
                var visited: [String] = []
                update.forEachSubtree { visited.append("\($0.path.slashless)=\(String(describing: $0.node))") }
                let joined = (update.subtrees ?? []).map { "\($0.path.slashless)=\(String(describing: $0.node))" }
                #expect(visited.sorted() == joined.sorted())
                #expect(update.carriesSubtrees == (update.subtrees != nil))
                let haveNodes = (update.subtrees ?? []).allSatisfy { $0.node != nil }
                #expect(update.subtreesHaveNodes == haveNodes)
                #expect(update.allSubtrees { $0.node != nil } == haveNodes)
                #expect(Set(update.paths.map(\.slashless)) == Set(update.parts.joined().map(\.path.slashless)))
                #expect(update.mutations == CommitFeed.merge(update.parts, spineValues: update.spineValues ?? [:]))
            }
        }
    }
}
