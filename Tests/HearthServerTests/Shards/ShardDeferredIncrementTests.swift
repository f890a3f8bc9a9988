import HearthCore
import HearthTestKit
import HearthWire
import Testing

@testable import HearthDatabase

/// A leader leaves a write's bare increments to the apply while no tree holds a huge number (`ShardEdits`): what it
/// resolves first and what the apply adds must be exactly the write resolved whole against the tree before it and
/// applied in order (the replicas' and the replay's way, which reads every increment's number first), and only bare
/// increments that cannot overflow are left to it.
@Suite struct ShardDeferredIncrementTests {
    /// No number of magnitude 1e300 or more: the condition under which a leader leaves increments to the apply.
    private static let values = [
        "1", "-2", "2.5", #""text""#, "true", "null", "1e200", "9223372036854775807", "-9223372036854775807",
        #"{"x":1,"y":{"z":"q"}}"#, #"{"n":5,".priority":3}"#, #"{".value":7,".priority":"p"}"#,
    ]
    private static let serverValues = [
        #"{".sv":{"increment":1}}"#, #"{".sv":{"increment":-3.5}}"#, #"{".sv":{"increment":9223372036854775807}}"#,
        #"{".sv":{"increment":-1}}"#, #"{".sv":"timestamp"}"#, #"{"k":{".sv":{"increment":2}},"m":1}"#,
    ]

    private static let mutations = RandomShardMutations(
        values: Self.values, serverValues: Self.serverValues, plainSets: 4)

    /// Random writes resolved with their increments left to the apply give the edits and the tree that resolving
    /// them whole first gives, on trees kept as versions or not.
    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func incrementsLeftToTheApplyResolveAsReadFirst(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        var tree = Node.empty
        var reference = Node.empty
        var kept: [(node: Node, hash: String)] = []
        var left = 0
        for step in 0..<300 {
            let mutations = try (0..<Int.random(in: 1...5, using: &random)).map { _ in
                try Self.mutations.mutation(&random)
            }
            guard case .success(let whole) = Mutation.resolving(mutations, in: reference, now: Int64(step)),
                case .success(var edits) = Mutation.resolving(
                    mutations, in: tree, now: Int64(step), deferringIncrements: true)
            else {
                Issue.record("seed \(seed) step \(step): nothing here overflows")
                return
            }
            for index in mutations.indices {
                #expect(edits.increments.contains(index) == (mutations[index].commutingIncrementDelta != nil))
            }
            left += mutations.indices.filter(edits.increments.contains).count
            if Int.random(in: 0..<4, using: &random) == 0 { kept.append((tree, tree.hash)) }
            edits.apply(to: &tree)
            reference.apply(whole)
            #expect(edits.edits == whole, "seed \(seed) step \(step): \(mutations)")
            #expect(edits.increments.isEmpty)
            #expect(tree == reference, "seed \(seed) step \(step)")
            #expect(tree.hash == reference.hash, "seed \(seed) step \(step): hash")
        }
        #expect(left > 100, "seed \(seed): only \(left) increments were left to the apply")
        for (index, version) in kept.enumerated() {
            #expect(version.node.hash == version.hash, "seed \(seed): kept version \(index) changed")
        }
    }

    /// Only a bare increment whose delta is below `Mutation.commutingDeltaLimit` is left to the apply, and only among
    /// the first 64 mutations: a timestamp, an increment inside an object or of a priority, and a huge delta are
    /// resolved (and checked) first.
    @Test func onlyBareIncrementsThatCannotOverflowAreLeft() throws {
        let tree = try Fixture.node(#"{"a":{"n":5,"p":{".value":1,".priority":3}}}"#)
        let mutations = [
            try Fixture.set("a/n", #"{".sv":{"increment":2}}"#),
            try Fixture.set("a/d", #"{".sv":{"increment":-0.5}}"#),
            try Fixture.set("a/t", #"{".sv":"timestamp"}"#),
            try Fixture.set("a/o", #"{"k":{".sv":{"increment":2}}}"#),
            .setPriority(Fixture.path("a/p"), try Fixture.value(#"{".sv":{"increment":4}}"#)),
            try Fixture.set("a/h", #"{".sv":{"increment":1e300}}"#),
        ]
        guard case .success(let edits) = Mutation.resolving(mutations, in: tree, now: 7, deferringIncrements: true)
        else {
            Issue.record("nothing here overflows")
            return
        }
        #expect((0..<mutations.count).filter(edits.increments.contains) == [0, 1])
        #expect(edits.edits[0] == .set(Fixture.path("a/n"), Node(.int(2))))
        #expect(edits.edits[2] == .set(Fixture.path("a/t"), Node(.int(7))))
        let many = try (0..<70).map { try Fixture.set("c/k\($0)", #"{".sv":{"increment":1}}"#) }
        guard case .success(let manyEdits) = Mutation.resolving(many, in: tree, now: 7, deferringIncrements: true)
        else {
            Issue.record("nothing here overflows")
            return
        }
        #expect((0..<70).filter(manyEdits.increments.contains) == Array(0..<64))
        #expect(manyEdits.edits[64] == .set(Fixture.path("c/k64"), Node(.int(1))))
    }

    /// A star's parts committed at once (each a flag and a count under one post, `resolvingToCommit` then
    /// `commit(_:resolved:)`) and a single-shard write leave the leader's tree, its change and the edits it hands
    /// back as a replica applying the same entries makes them.
    @Test func aLeaderCommitsAsAReplicaApplies() throws {
        let tree = try Fixture.node(#"{"posts":{"p1":{"starCount":41,"stars":{"u0":true}},"p2":{"starCount":2.5}}}"#)
        var leader = ShardStateMachine(shard: 0, spineDepth: 1, trees: ["default": tree], index: 0, intents: [:])
        var replica = leader
        let plan = ShardTransactionPlan(anchor: 0, participants: [0, 1])
        let stars = [
            ("p1", "u1", "true", 1), ("p1", "u0", "null", -1), ("p2", "u1", "true", 1), ("p3", "u2", "true", 1),
        ]
        for (step, (post, user, flag, delta)) in stars.enumerated() {
            let part = ShardIntent(
                write: ShardWrite(
                    namespace: "default",
                    mutations: [
                        try Fixture.set("posts/\(post)/stars/\(user)", flag),
                        try Fixture.set("posts/\(post)/starCount", #"{".sv":{"increment":\#(delta)}}"#),
                    ], now: Int64(step)),
                plan: plan)
            let id = TransactionID(rawValue: UInt64(step + 1))
            let entry = ShardEntry.commit(id, part)
            guard case .success(var edits)? = leader.resolvingToCommit(id, entry) else {
                Issue.record("step \(step): the part was not resolved")
                return
            }
            let applied = leader.commit(entry, resolved: &edits)
            let replayed = try replica.apply(entry, at: leader.lastIndex)
            guard case .finished(_, _, let committed?) = applied.effect,
                case .finished(_, _, let replicaCommitted?) = replayed.effect
            else {
                Issue.record("step \(step): not committed")
                return
            }
            #expect(edits.increments.isEmpty)
            #expect(edits.edits == committed.change.mutations, "step \(step)")
            #expect(committed.change.mutations == replicaCommitted.change.mutations, "step \(step)")
            #expect(leader.node(namespace: "default", at: .root) == replica.node(namespace: "default", at: .root))
        }
        let write = ShardWrite(
            namespace: "default",
            mutations: [
                try Fixture.set("posts/p1/starCount", #"{".sv":{"increment":-0.5}}"#),
                try Fixture.set("posts/p4/title", #""t""#),
            ], now: 9)
        guard case .appended(let entry, let applied) = leader.write(write, conditions: []),
            case .write(let change) = applied.effect
        else {
            Issue.record("the write was not appended")
            return
        }
        let replayed = try replica.apply(entry, at: leader.lastIndex)
        guard case .write(let replicaChange) = replayed.effect else {
            Issue.record("the replica applied no write")
            return
        }
        #expect(change.mutations == replicaChange.mutations)
        #expect(change.mutations[0] == .set(Fixture.path("posts/p1/starCount"), Node(.double(40.5))))
        #expect(
            Fixture.json(leader.node(namespace: "default", at: .root))
                == #"{"posts":{"p1":{"starCount":40.5,"stars":{"u1":true}},"p2":{"starCount":3.5,"stars":{"u1":true}},"#
                + #""p3":{"starCount":1,"stars":{"u2":true}},"p4":{"title":"t"}}}"#)
        #expect(leader.node(namespace: "default", at: .root) == replica.node(namespace: "default", at: .root))
    }
}
