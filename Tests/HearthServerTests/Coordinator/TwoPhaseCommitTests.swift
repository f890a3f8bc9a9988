import HearthCore
import HearthTestKit
import HearthWire
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// Transcripts of the two-phase commit state machine: which directives it gives for each kind of multi-shard write,
/// and what each participant prepares.
@Suite struct TwoPhaseCommitTests {
    private static let router = ShardRouter(shardCount: 4, shardDepth: 2)
    private static let transaction = TransactionID(rawValue: 42)

    private static func commit(
        _ mutations: [Mutation], condition: WriteCondition? = nil, now: Int64 = 77, escalated: Bool = false
    ) -> TwoPhaseCommit {
        self.commit(mutations, conditions: condition.map { [$0] } ?? [], now: now, escalated: escalated)
    }

    private static func commit(
        _ mutations: [Mutation], conditions: [WriteCondition], now: Int64 = 77, escalated: Bool = false
    ) -> TwoPhaseCommit {
        TwoPhaseCommit(
            transaction: Self.transaction, namespace: "default", mutations: mutations, conditions: conditions,
            now: now, router: Self.router, escalated: escalated)
    }

    /// The data every shard holds at `paths`, and its index, as a coordinator reads them.
    private static func read(_ simulation: Simulation, _ paths: [Path]) -> ([Int: [Node]], [Int: UInt64]) {
        var nodes: [Int: [Node]] = [:]
        var through: [Int: UInt64] = [:]
        for machine in simulation.machines {
            nodes[machine.shard] = paths.map { machine.node(namespace: "default", at: $0) }
            through[machine.shard] = machine.lastIndex
        }
        return (nodes, through)
    }

    /// Every participant's part: the only directive must prepare every part but the anchor's, ascending; then
    /// `onPrepared` must give the anchor's decision with its own part, which comes last.
    private static func prepared(
        _ directives: [TwoPhaseCommit.Directive], _ machine: inout TwoPhaseCommit,
        sourceLocation: SourceLocation = #_sourceLocation
    )
        -> [(shard: Int, write: ShardWrite)]?
    {
        guard directives.count == 1, case .prepare(let parts, let plan) = directives[0] else {
            Issue.record("expected one prepare, got \(directives)", sourceLocation: sourceLocation)
            return nil
        }
        #expect(parts.map(\.shard) == plan.participants.dropLast(), sourceLocation: sourceLocation)
        #expect(plan.anchor == plan.participants.last, sourceLocation: sourceLocation)
        let decide = machine.onPrepared()
        #expect(machine.phase == .deciding, sourceLocation: sourceLocation)
        guard decide.count == 1, case .decide(let anchor, let part) = decide[0] else {
            Issue.record("expected the anchor's decision, got \(decide)", sourceLocation: sourceLocation)
            return nil
        }
        #expect(anchor == plan.anchor && part.plan == plan, sourceLocation: sourceLocation)
        return parts.map { (shard: $0.shard, write: $0.intent.write) } + [(shard: anchor, write: part.write)]
    }

    /// The node a prepared part sets at `path` (every part of a spine set has exactly one).
    private static func setNode(_ write: ShardWrite, at path: Path) -> Node? {
        for case .set(path, let value) in write.mutations {
            #expect(!value.hasServerValues, "a spine value is resolved before it is cut")
            return value.node
        }
        return nil
    }

    @Test func aDeepMultiShardUpdatePreparesAscendingDecidesAtTheHighestAnchorThenFinishesTheRest() throws {
        let keys = try #require(Fixture.keys("p", under: Fixture.path("posts"), router: Self.router, shards: [3, 1]))
        let (high, low) = (keys[0], keys[1])
        var machine = Self.commit([
            try Fixture.set("posts/\(high)/stars/u1", "true"),
            try Fixture.set("posts/\(high)/starCount", #"{".sv":{"increment":1}}"#),
            try Fixture.set("posts/\(low)/n", "1"),
        ])
        #expect(machine.phase == .preparing, "nothing to read")
        #expect(machine.plan == ShardTransactionPlan(anchor: 3, participants: [1, 3]))
        let parts = try #require(Self.prepared(machine.start(), &machine))
        #expect(
            parts.map { $0.write.paths.map(\.slashless) } == [
                ["posts/\(low)/n"], ["posts/\(high)/stars/u1", "posts/\(high)/starCount"],
            ])
        #expect(parts.allSatisfy { $0.write.now == 77 && $0.write.namespace == "default" })
        guard case .set(_, let increment) = parts[1].write.mutations[1] else {
            Issue.record("the increment must stay a set")
            return
        }
        #expect(increment.hasServerValues, "a deep part resolves its server values when it is applied")
        #expect(machine.phase == .deciding, "the anchor decides with its own part")
        let finish = machine.onDecided()
        #expect(machine.phase == .done)
        guard finish.count == 1, case .finish(let participants, commit: true) = finish[0] else {
            Issue.record("expected the other participants' finish, got \(finish)")
            return
        }
        #expect(participants == [1])
    }

    @Test func aSpineWriteWithServerValuesReadsFirstThenPreparesResolvedParts() throws {
        let keys = try #require(Fixture.keys("p", under: Fixture.path("posts"), router: Self.router, shards: [0, 2]))
        let simulation = Simulation(router: Self.router)
        guard case .committed? = simulation.write([try Fixture.set("posts/\(keys[0])/n", "41")]) else {
            Issue.record("seeding failed")
            return
        }
        let value = """
            {"title":"hello","top":{".sv":"timestamp"},"posts":{".priority":3,"\(keys[0])":{"n":{".sv":{"increment":1}}},\
            "\(keys[1])":{"t":{".sv":"timestamp"}}}}
            """
        let mutation = try Fixture.set("", value)
        var machine = Self.commit([mutation])
        #expect(machine.phase == .reading)
        let start = machine.start()
        guard start.count == 1, case .lockAndRead(let participants, let paths) = start[0] else {
            Issue.record("a spine write with server values must read first, got \(start)")
            return
        }
        #expect(participants == [0, 1, 2, 3] && paths == [.root])
        let (nodes, through) = Self.read(simulation, paths)
        let parts = try #require(Self.prepared(machine.onRead(nodes, through: through), &machine))
        let expected = try Fixture.node(
            #"{"title":"hello","top":77,"posts":{".priority":3,"\#(keys[0])":{"n":42},"\#(keys[1])":{"t":77}}}"#)
        let cut = try parts.map { try #require(Self.setNode($0.write, at: .root)) }
        #expect(Node.union(cut) == expected, "the parts join into the resolved value")
        for (shard, part) in cut.enumerated() {
            #expect(
                part.child(Key(unchecked: "title")) == Node(.string("hello")), "shard \(shard) keeps the spine leaf")
            #expect(part.child(Key(unchecked: "top")) == Node(.int(77)), "shard \(shard) keeps the resolved leaf")
            let posts = part.child(Key(unchecked: "posts"))
            #expect(posts.isEmpty || posts.priority == .int(3), "shard \(shard) keeps the spine priority")
        }
        guard case .committed? = simulation.write([mutation], now: 77) else {
            Issue.record("the write must commit")
            return
        }
        #expect(simulation.visible(.root) == expected)
    }

    @Test func aClientsSpineBodyIsCutAsTextAndItsWholeValueIsKeptForTheView() throws {
        let body = #"{"title":"hi","posts":{"p1":{"n":1},"p2":{"n":2},"p3":[3],"p4":"four"}}"#
        var value = try Fixture.value(body)
        value.sourceJSON = Array(body.utf8)
        var machine = Self.commit([.set(.root, value)])
        let parts = try #require(Self.prepared(machine.start(), &machine))
        #expect(machine.spineValues == [.root: value.node])
        var cut: [Node] = []
        for (shard, write) in parts {
            guard case .set(.root, let part) = write.mutations.first else {
                Issue.record("shard \(shard) must set the root")
                continue
            }
            let text = try #require(part.sourceJSON, "shard \(shard)'s part keeps the client's bytes")
            #expect(try WriteValue.parseWrite(text, depth: 0).node == part.node, "shard \(shard)")
            #expect(part.jsonBytes() == text, "the log stores the copied text")
            cut.append(part.node)
        }
        #expect(Node.union(cut) == value.node)
    }

    @Test func aFailedCompareAndSetReleasesItsReadLocksAndPreparesNothing() throws {
        let keys = try #require(Fixture.keys("p", under: Fixture.path("posts"), router: Self.router, shards: [2, 0]))
        let simulation = Simulation(router: Self.router)
        simulation.write([try Fixture.set("posts/\(keys[0])", #"{"n":1}"#)])
        let mutations = [try Fixture.set("posts/\(keys[0])", #"{"n":2}"#), try Fixture.set("posts/\(keys[1])", "2")]
        let stale = WriteCondition(path: Fixture.path("posts/\(keys[0])"), expectedHash: Node(.int(1)).hash)
        var machine = Self.commit(mutations, condition: stale)
        let start = machine.start()
        guard start.count == 1, case .lockAndRead(let participants, let paths) = start[0] else {
            Issue.record("a compare-and-set must read first, got \(start)")
            return
        }
        #expect(participants == [0, 2] && paths == [stale.path])
        let (nodes, through) = Self.read(simulation, paths)
        let failed = machine.onRead(nodes, through: through)
        guard failed.count == 1, case .conditionFailed(let released, let reflected) = failed[0] else {
            Issue.record("expected conditionFailed, got \(failed)")
            return
        }
        #expect(released == [0, 2] && reflected == through && machine.phase == .done)
        let records = simulation.records.count
        guard case .conditionFailed(let current)? = simulation.write(mutations, conditions: [stale]) else {
            Issue.record("the stale write must fail")
            return
        }
        #expect(current == (try Fixture.node(#"{"n":1}"#)))
        #expect(simulation.records.count == records, "a failed compare-and-set logs nothing")
        #expect(simulation.machines.allSatisfy { $0.readLocks.isEmpty && $0.intents.isEmpty })
    }

    @Test func everyConditionIsReadAndGuardsTheParticipantsThatOwnIt() throws {
        let keys = try #require(Fixture.keys("p", under: Fixture.path("posts"), router: Self.router, shards: [2, 0]))
        let user = try #require(Fixture.keys("u", under: Fixture.path("users"), router: Self.router, shards: [1]))
        let simulation = Simulation(router: Self.router)
        simulation.write([try Fixture.set("users/\(user[0])", "true")])
        let conditions = [
            WriteCondition(path: Fixture.path("users/\(user[0])"), expectedHash: Node(.bool(true)).hash),
            WriteCondition(path: Fixture.path("posts/\(keys[1])"), expectedHash: ""),
        ]
        let mutations = [try Fixture.set("posts/\(keys[0])", "1"), try Fixture.set("posts/\(keys[1])", "2")]
        var machine = Self.commit(mutations, conditions: conditions)
        guard case .lockAndRead(let participants, let paths)? = machine.start().first else {
            Issue.record("conditions are read first")
            return
        }
        #expect(participants == [0, 1, 2] && Set(paths) == Set(conditions.map(\.path)))
        let (nodes, through) = Self.read(simulation, paths)
        guard case .prepare(let parts, _)? = machine.onRead(nodes, through: through).first else {
            Issue.record("conditions that hold prepare")
            return
        }
        #expect(parts.map(\.shard) == [0, 1])
        #expect(parts[0].intent.guards == [conditions[1].path], "shard 0 owns the post it must find absent")
        #expect(parts[1].intent.guards == [conditions[0].path], "shard 1 writes nothing but guards the user")
        #expect(parts[1].intent.write.mutations.isEmpty)
        var wrong = conditions
        wrong[0].expectedHash = Node(.bool(false)).hash
        guard case .conditionFailed? = simulation.write(mutations, conditions: wrong) else {
            Issue.record("one failing condition fails the write")
            return
        }
        guard case .committed? = simulation.write(mutations, conditions: conditions) else {
            Issue.record("conditions that hold commit")
            return
        }
    }

    @Test func aCompareAndSetThatHoldsPreparesAndCommits() throws {
        let keys = try #require(Fixture.keys("p", under: Fixture.path("posts"), router: Self.router, shards: [2, 0]))
        let simulation = Simulation(router: Self.router)
        simulation.write([try Fixture.set("posts/\(keys[0])", #"{"n":1}"#)])
        let current = WriteCondition(
            path: Fixture.path("posts/\(keys[0])"), expectedHash: try Fixture.node(#"{"n":1}"#).hash)
        let mutations = [try Fixture.set("posts/\(keys[0])/n", "2"), try Fixture.set("posts/\(keys[1])", "2")]
        var machine = Self.commit(mutations, condition: current)
        let (nodes, through) = Self.read(simulation, [current.path])
        _ = machine.start()
        let parts = try #require(Self.prepared(machine.onRead(nodes, through: through), &machine))
        #expect(parts.map(\.shard) == [0, 2])
        guard case .committed? = simulation.write(mutations, conditions: [current]) else {
            Issue.record("the write must commit")
            return
        }
        #expect(
            simulation.visible(Fixture.path("posts")) == (try Fixture.node(#"{"\#(keys[1])":2,"\#(keys[0])":{"n":2}}"#))
        )
    }

    @Test func anEscalatedWriteBelowASpineLeafClearsTheLeafInEveryShardFirst() throws {
        let key = try #require(Fixture.keys("p", under: Fixture.path("posts"), router: Self.router, shards: [2]))[0]
        let simulation = Simulation(router: Self.router)
        simulation.write([try Fixture.set("posts", #""none""#)])
        #expect(simulation.machines.allSatisfy { $0.node(namespace: "default", at: Fixture.path("posts")).isLeaf })
        let mutation = try Fixture.set("posts/\(key)/x", "1")
        var machine = Self.commit([mutation], escalated: true)
        let start = machine.start()
        guard start.count == 1, case .lockAndRead(let participants, let paths) = start[0] else {
            Issue.record("an escalated write reads the spine above it, got \(start)")
            return
        }
        #expect(participants == [0, 1, 2, 3] && paths == [.root, Fixture.path("posts")])
        let (nodes, through) = Self.read(simulation, paths)
        let parts = try #require(Self.prepared(machine.onRead(nodes, through: through), &machine))
        for (shard, write) in parts {
            guard case .set(Fixture.path("posts"), let clear)? = write.mutations.first else {
                Issue.record("shard \(shard) must clear /posts first: \(write.paths)")
                continue
            }
            #expect(clear.node.isEmpty)
            #expect(write.mutations.count == (shard == 2 ? 3 : 2))
            // The root above the new data is no leaf: every shard copies its priority (none here).
            guard case .setPriority(.root, let copy)? = write.mutations.last else {
                Issue.record("shard \(shard) must copy the root's priority last: \(write.paths)")
                continue
            }
            #expect(copy.node.isEmpty)
        }
        guard case .committed? = simulation.write([mutation]) else {
            Issue.record("the escalated write must commit")
            return
        }
        #expect(Fixture.json(simulation.visible(.root)) == #"{"posts":{"\#(key)":{"x":1}}}"#)
        #expect(simulation.machines.allSatisfy { !$0.node(namespace: "default", at: Fixture.path("posts")).isLeaf })
    }
}
