import HearthCore
import HearthTestKit
import HearthWire
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// The shard state machine's rules one at a time: when a write must run over every shard, what a failed
/// compare-and-set leaves behind, what a prepared transaction locks, and that server values resolve from the entry.
@Suite struct ShardStateMachineTests {
    private static func machine(_ json: String, spineDepth: Int = 2) throws -> ShardStateMachine {
        let tree = try Fixture.node(json)
        return ShardStateMachine(
            shard: 0, spineDepth: spineDepth, trees: ["default": tree], index: 0, intents: [:])
    }

    private static func write(_ mutations: Mutation..., now: Int64 = 5) -> ShardWrite {
        ShardWrite(namespace: "default", mutations: mutations, now: now)
    }

    @Test func aWriteBelowASpineLeafNeedsAllShards() throws {
        var machine = try Self.machine(#"{"a":"leaf","b":{"x":5}}"#)
        let cases: [(Mutation, Bool)] = [
            (try Fixture.set("a/x/m", "1"), true),
            (try Fixture.set("a/x", #"{"m":{".sv":"timestamp"}}"#), true),
            (try Fixture.set("a/x/m", "null"), false),
            (.setPriority(Fixture.path("a/x"), try Fixture.value("3")), false),
            (try Fixture.set("b/x/m", "1"), false),
            (try Fixture.set("c/x/m", "1"), false),
        ]
        for (mutation, needsAllShards) in cases {
            var copy = machine
            let decision = copy.write(Self.write(mutation), conditions: [])
            if case .needsAllShards = decision {
                #expect(needsAllShards, "\(mutation.path) does not land below a spine leaf")
            } else {
                #expect(!needsAllShards, "\(mutation.path) lands below the spine leaf /a: \(decision)")
            }
        }
        machine = try Self.machine(#""a root leaf""#)
        guard case .needsAllShards = machine.write(Self.write(try Fixture.set("q/r", "1")), conditions: []) else {
            Issue.record("a write below a leaf at the root must run over every shard")
            return
        }
    }

    /// A write of several paths needs all shards when any one of them lands below a spine leaf, whether it comes
    /// first or after paths in another spine node, or after a path in the same one.
    @Test func everyPathOfAWriteIsCheckedAgainstTheSpineLeavesAboveIt() throws {
        let machine = try Self.machine(#"{"a":"leaf","b":{"x":5},"c":{"y":{"n":1}}}"#)
        let cases: [([String], Bool)] = [
            (["b/x/m", "a/x/m"], true),
            (["a/x/m", "b/x/m"], true),
            (["c/y/m", "c/y/n", "a/z/k"], true),
            (["c/y/m", "c/y/n"], false),
            (["b/q/m", "b/r/n"], false),
        ]
        for (paths, needsAllShards) in cases {
            var copy = machine
            let mutations = try paths.map { try Fixture.set($0, "1") }
            let write = ShardWrite(namespace: "default", mutations: mutations, now: 5)
            let decision = copy.write(write, conditions: [])
            if case .needsAllShards = decision {
                #expect(needsAllShards, "\(paths) lands below no spine leaf")
            } else {
                #expect(!needsAllShards, "\(paths) lands below the spine leaf /a: \(decision)")
            }
        }
    }

    /// The needsAllShards rule against the model, over random trees whose spine holds leaves.
    @Test(arguments: [11, 12, 13] as [UInt64])
    func needsAllShardsExactlyWhenAWriteAddsDataBelowASpineLeaf(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let keys = ["a", "b"]
        var hits = 0
        for round in 0..<300 {
            var model = LeafModel()
            for _ in 0..<Int.random(in: 0...5, using: &random) {
                let depth = Int.random(in: 0...3, using: &random)
                let path = Path(
                    keys: (0..<depth).map { _ in Key(unchecked: keys[Int.random(in: 0..<2, using: &random)]) })
                model.set(path, to: model.resolve(.leaf(ValueSpec.leaf(&random), nil), at: path, now: 1))
            }
            var machine = ShardStateMachine(
                shard: 0, spineDepth: 2, trees: ["default": model.node(at: .root)], index: 0, intents: [:])
            let depth = Int.random(in: 2...4, using: &random)
            let path = Path(keys: (0..<depth).map { _ in Key(unchecked: keys[Int.random(in: 0..<2, using: &random)]) })
            let spec = ValueSpec.random(&random, depth: 1)
            let expected = spec.hasContent && model.hasLeafAbove(path, shallowerThan: 2)
            let decision = machine.write(Self.write(.set(path, try spec.writeValue(at: path))), conditions: [])
            var answered = false
            if case .needsAllShards = decision { answered = true }
            #expect(
                answered == expected, "seed \(seed) round \(round): \(path) over \(Fixture.json(model.node(at: .root)))"
            )
            if expected { hits += 1 }
        }
        #expect(hits > 10)
    }

    @Test func aFailedCompareAndSetAppendsNothingAndReportsTheCurrentValue() throws {
        var machine = try Self.machine(#"{"a":{"x":{"n":1}}}"#)
        let mutation = try Fixture.set("a/x/n", "2")
        let wrong = WriteCondition(path: Fixture.path("a/x/n"), expectedHash: Node(.int(7)).hash)
        guard case .conditionFailed(let current) = machine.write(Self.write(mutation), conditions: [wrong]) else {
            Issue.record("a wrong hash must fail")
            return
        }
        #expect(current == Node(.int(1)))
        #expect(machine.lastIndex == 0)
        #expect(machine.node(namespace: "default", at: Fixture.path("a/x/n")) == Node(.int(1)))
        let right = WriteCondition(path: Fixture.path("a/x/n"), expectedHash: Node(.int(1)).hash)
        guard case .appended = machine.write(Self.write(mutation), conditions: [right]) else {
            Issue.record("the right hash must write")
            return
        }
        #expect(machine.lastIndex == 1)
        let absent = WriteCondition(path: Fixture.path("a/y"), expectedHash: "")
        guard case .appended = machine.write(Self.write(try Fixture.set("a/y", "1")), conditions: [absent]) else {
            Issue.record("an empty hash matches an absent node")
            return
        }
    }

    @Test func aPreparedTransactionBlocksOverlappingPathsUntilItFinishes() throws {
        var machine = try Self.machine(#"{"a":{"x":{"n":1}}}"#)
        let transaction = TransactionID(rawValue: 9)
        let plan = ShardTransactionPlan(anchor: 2, participants: [0, 2])
        guard
            case .appended = machine.prepare(
                transaction, ShardIntent(write: Self.write(try Fixture.set("a/x", "5")), plan: plan))
        else {
            Issue.record("prepare on a free path must append")
            return
        }
        for (path, blocked) in [("a/x", true), ("a/x/n", true), ("a", true), ("a/y", false), ("b/x", false)] {
            var copy = machine
            var isBlocked = false
            if case .blocked = copy.write(Self.write(try Fixture.set(path, "1")), conditions: []) { isBlocked = true }
            #expect(isBlocked == blocked, "write at \(path)")
        }
        let other = TransactionID(rawValue: 10)
        let sameNamespace = machine.lock(other, namespace: "default", paths: [Fixture.path("a/x/n")])
        let otherNamespace = machine.lock(other, namespace: "other", paths: [Fixture.path("a/x/n")])
        #expect(!sameNamespace)
        #expect(otherNamespace, "namespaces never overlap")
        #expect(
            machine.node(namespace: "default", at: Fixture.path("a/x"))
                == Node(
                    children: ChildMap().updating(
                        Key(unchecked: "n"), with: Node(.int(1)))), "a prepared write is not applied yet")
        guard case .appended(_, let applied) = machine.finish(transaction, commit: true) else {
            Issue.record("finish must append")
            return
        }
        #expect(machine.node(namespace: "default", at: Fixture.path("a/x")) == Node(.int(5)))
        guard case .finished(transaction, decision: nil, committed: let part?) = applied.effect else {
            Issue.record("a participant's finish commits its prepared part: \(applied.effect)")
            return
        }
        #expect(part.participants == [0, 2] && machine.intents.isEmpty)
        guard case .appended = machine.write(Self.write(try Fixture.set("a/x/n", "1")), conditions: []) else {
            Issue.record("the path is free once the transaction finished")
            return
        }
    }

    /// A part committed at once is applied with nothing left prepared or decided; what obstructs it is exactly what
    /// would make its prepare park, answer a duplicate or rerun over every shard.
    @Test func aPartCommittedAtOnceAppliesAndIsObstructedWhereAPrepareWouldBe() throws {
        var machine = try Self.machine(#"{"a":{"x":{"n":1}},"s":"leaf"}"#)
        let plan = ShardTransactionPlan(anchor: 2, participants: [0, 2])
        let origin = try WriteOrigin(client: "c", sequence: 1, settledBelow: 1)
        func part(_ mutation: Mutation, origin: WriteOrigin? = nil) -> ShardIntent {
            ShardIntent(
                write: ShardWrite(namespace: "default", mutations: [mutation], now: 5, origin: origin), plan: plan)
        }
        let first = part(try Fixture.set("a/x/n", #"{".sv":{"increment":2}}"#), origin: origin)
        #expect(machine.obstacleToCommit(TransactionID(rawValue: 1), first) == nil)
        guard case .appended(.commit, let applied) = machine.commit(TransactionID(rawValue: 1), first),
            case .finished(_, decision: nil, committed: let committed?) = applied.effect
        else {
            Issue.record("a part with no obstacle commits")
            return
        }
        #expect(committed.participants == [0, 2])
        #expect(machine.node(namespace: "default", at: Fixture.path("a/x/n")) == Node(.int(3)))
        #expect(machine.intents.isEmpty && machine.decisions.isEmpty && machine.lastIndex == 1)
        #expect(applied.recorded?.origin == origin, "the part's origin is remembered where it committed")

        guard case .duplicate? = machine.obstacleToCommit(TransactionID(rawValue: 2), first) else {
            Issue.record("the same named part again is a duplicate")
            return
        }
        guard
            case .needsAllShards? = machine.obstacleToCommit(
                TransactionID(rawValue: 2), part(try Fixture.set("s/x/y", "1")))
        else {
            Issue.record("a part below a spine leaf needs every shard")
            return
        }
        _ = machine.prepare(TransactionID(rawValue: 3), part(try Fixture.set("a/x", "5")))
        guard case .blocked? = machine.obstacleToCommit(TransactionID(rawValue: 4), part(try Fixture.set("a/x/n", "1")))
        else {
            Issue.record("a part overlapping a prepared one is blocked")
            return
        }
        #expect(machine.obstacleToCommit(TransactionID(rawValue: 4), part(try Fixture.set("a/y", "1"))) == nil)
    }

    @Test func aReadLockBlocksWritesAndIsReleasedByUnlockOrPrepare() throws {
        var machine = try Self.machine("{}")
        let transaction = TransactionID(rawValue: 1)
        let first = machine.lock(transaction, namespace: "default", paths: [Fixture.path("a/x")])
        let again = machine.lock(transaction, namespace: "default", paths: [Fixture.path("a/x")])
        #expect(first)
        #expect(again, "its own lock never blocks it")
        guard case .blocked = machine.write(Self.write(try Fixture.set("a/x/n", "1")), conditions: []) else {
            Issue.record("a read lock must block an overlapping write")
            return
        }
        var unlocked = machine
        unlocked.unlock(transaction)
        guard case .appended = unlocked.write(Self.write(try Fixture.set("a/x/n", "1")), conditions: []) else {
            Issue.record("unlock must free the path")
            return
        }
        let plan = ShardTransactionPlan(anchor: 1, participants: [0, 1])
        guard case .appended = machine.prepare(transaction, ShardIntent(write: Self.write(), plan: plan)) else {
            Issue.record("a transaction's own read lock never blocks its prepare")
            return
        }
        #expect(machine.readLocks.isEmpty)
        guard case .appended = machine.write(Self.write(try Fixture.set("a/x/n", "1")), conditions: []) else {
            Issue.record("an empty part locks nothing once prepared")
            return
        }
    }

    @Test func serverValuesResolveFromTheEntrysClockOnEveryReplica() throws {
        var leader = try Self.machine(#"{"a":{"x":{"n":41}}}"#)
        var follower = leader
        let write = Self.write(
            try Fixture.set("a/x/n", #"{".sv":{"increment":1}}"#), try Fixture.set("a/x/t", #"{".sv":"timestamp"}"#),
            .setPriority(Fixture.path("a/x"), try Fixture.value(#"{".sv":"timestamp"}"#)), now: 1_234)
        guard case .appended(let entry, let applied) = leader.write(write, conditions: []) else {
            Issue.record("the write must append")
            return
        }
        let decoded = try ShardLogRecord(decoding: ShardLogRecord.encode(entry, shard: 0, index: 1))
        guard case .entry(_, _, let replayed) = decoded else {
            Issue.record("decoded \(decoded)")
            return
        }
        let replica = try follower.apply(replayed, at: 1)
        #expect(
            Fixture.json(leader.node(namespace: "default", at: .root))
                == #"{"a":{"x":{"n":42,"t":1234,".priority":1234}}}"#)
        #expect(follower.trees == leader.trees)
        guard case .write(let leaderChange) = applied.effect,
            case .write(let replicaChange) = replica.effect
        else {
            Issue.record("writes must apply as writes")
            return
        }
        #expect(leaderChange.mutations == replicaChange.mutations)
    }

    @Test func restoringFromASnapshotDropsEmptyTreesAndKeepsTheIndex() {
        let machine = ShardStateMachine(
            shard: 2, spineDepth: 2, trees: ["gone": .empty, "kept": Node(.int(1))], index: 17, intents: [:])
        #expect(Array(machine.trees.keys) == ["kept"])
        #expect(machine.lastIndex == 17)
        #expect(machine.intents.isEmpty)
    }
}
