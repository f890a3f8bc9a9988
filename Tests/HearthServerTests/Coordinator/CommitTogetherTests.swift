import HearthCore
import HearthWire
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// On one node every shard shares one log and one executor, so a multi-shard write that reads nothing commits its
/// parts at once, in one record; a part that cannot (held by a prepared transaction, or sent before) changes
/// nothing and goes through two-phase commit instead.
@Suite struct CommitTogetherTests {
    private static let router = ShardRouter(shardCount: 4, shardDepth: 2)

    private static func keys() throws -> (String, String) {
        let keys = try #require(Fixture.keys("p", under: Fixture.path("posts"), router: Self.router, shards: [1, 3]))
        return (keys[0], keys[1])
    }

    private static func isCommit(_ entry: ShardEntry) -> Bool {
        if case .commit = entry { return true }
        return false
    }

    private static func isPrepare(_ entry: ShardEntry) -> Bool {
        if case .prepare = entry { return true }
        return false
    }

    /// The committed log's entries once `update` committed; nil (an issue recorded, naming `what`) when it did not.
    private static func log(
        after update: SimulatedTask<WriteOutcome>, in simulation: Simulation, _ what: String
    ) throws -> [(record: Int, shard: Int, index: UInt64, entry: ShardEntry)]? {
        guard case .committed? = update.value else {
            Issue.record("\(what) did not commit")
            return nil
        }
        return try simulation.entries(simulation.records)
    }

    @Test func aTwoShardUpdateCommitsAsOneRecordOfItsParts() throws {
        let (a, b) = try Self.keys()
        let simulation = Simulation(router: Self.router)
        let update = simulation.spawn { node in
            try await node.write([
                try Fixture.set("posts/\(a)/n", #"{".sv":{"increment":2}}"#),
                try Fixture.set("posts/\(b)/on", "true"),
            ])
        }
        simulation.run()
        guard case .committed(let resolved)? = update.value else {
            Issue.record("the update did not commit")
            return
        }
        #expect(Set(resolved.map(\.path)) == [Fixture.path("posts/\(a)/n"), Fixture.path("posts/\(b)/on")])
        let wal = try simulation.entries(simulation.records)
        #expect(wal.map(\.shard) == [1, 3])
        #expect(Set(wal.map(\.record)) == [0], "both parts are in one record")
        #expect(wal.allSatisfy { Self.isCommit($0.entry) })
        #expect(simulation.visible(Fixture.path("posts/\(a)/n")) == Node(.int(2)))
        #expect(simulation.visible(Fixture.path("posts/\(b)/on")) == Node(.bool(true)))
        let machines = simulation.machines
        #expect(machines.allSatisfy { $0.intents.isEmpty && $0.decisions.isEmpty && $0.readLocks.isEmpty })
        #expect(machines[1].lastIndex == 1 && machines[3].lastIndex == 1)
    }

    @Test func aPartHeldByAPreparedTransactionWaitsForItThroughTwoPhaseCommit() throws {
        let (a, b) = try Self.keys()
        let simulation = Simulation(router: Self.router)
        let held = TransactionID(rawValue: 5)
        let holding = ShardIntent(
            write: ShardWrite(namespace: "default", mutations: [try Fixture.set("posts/\(a)/n", "9")], now: 1),
            plan: ShardTransactionPlan(anchor: 3, participants: [1, 3]))
        simulation.spawn { node in try await node.shards[1].prepare(held, holding) }
        simulation.run()
        let update = simulation.spawn { node in
            try await node.write([try Fixture.set("posts/\(a)/n", "1"), try Fixture.set("posts/\(b)/on", "true")])
        }
        simulation.run()
        #expect(update.value == nil, "the update waits for the prepared transaction")
        #expect(simulation.visible(Fixture.path("posts/\(b)/on")).isEmpty, "nothing of it was committed at once")
        simulation.spawn { node in try await node.shards[1].finish(held, commit: false) }
        simulation.run()
        guard let wal = try Self.log(after: update, in: simulation, "the update, once the transaction finished") else {
            return
        }
        #expect(!wal.contains { Self.isCommit($0.entry) })
        #expect(wal.filter { Self.isPrepare($0.entry) }.count == 2, "the held part, then the update's")
        #expect(simulation.visible(Fixture.path("posts/\(a)/n")) == Node(.int(1)))
        #expect(simulation.visible(Fixture.path("posts/\(b)/on")) == Node(.bool(true)))
    }

    @Test func aNamedUpdateSentAgainIsAnsweredWithoutApplyingTwice() throws {
        let (a, b) = try Self.keys()
        let simulation = Simulation(router: Self.router)
        let origin = try WriteOrigin(client: "app", sequence: 4, settledBelow: 4)
        let mutations = [
            try Fixture.set("posts/\(a)/n", #"{".sv":{"increment":1}}"#),
            try Fixture.set("posts/\(b)/on", "true"),
        ]
        let outcomes = simulation.spawn { node in
            var outcomes: [WriteOutcome] = []
            for _ in 0..<2 {
                outcomes.append(
                    try await node.coordinator.write(
                        namespace: "default", mutations: mutations, conditions: [], now: 1, origin: origin))
            }
            return outcomes
        }
        simulation.run()
        let answered = try #require(outcomes.value)
        guard answered.count == 2, case .committed = answered[0], case .committed(let again) = answered[1] else {
            Issue.record("both sends must be answered committed: \(answered)")
            return
        }
        #expect(again.isEmpty, "the second send applied nothing")
        #expect(simulation.visible(Fixture.path("posts/\(a)/n")) == Node(.int(1)))
        let wal = try simulation.entries(simulation.records)
        #expect(wal.count == 2 && wal.allSatisfy { Self.isCommit($0.entry) })
    }

    /// An import too large for one record prepares part by part, as on a cluster.
    @Test func aWriteBeyondTheRecordLimitPreparesPartByPart() throws {
        let (a, b) = try Self.keys()
        let simulation = Simulation(router: Self.router)
        let text = String(repeating: "x", count: Coordinator.togetherByteLimit / 4)
        let json = Array(("{" + (0..<4).map { "\"k\($0)\":\"\(text)\"" }.joined(separator: ",") + "}").utf8)
        var big = try WriteValue.parseWrite(json, depth: 3)
        big.sourceJSON = json
        let update = simulation.spawn { [big] node in
            try await node.write([.set(Fixture.path("posts/\(a)/text"), big), try Fixture.set("posts/\(b)/on", "true")])
        }
        simulation.run()
        guard let wal = try Self.log(after: update, in: simulation, "the import") else { return }
        #expect(!wal.contains { Self.isCommit($0.entry) })
        #expect(wal.contains { Self.isPrepare($0.entry) })
        #expect(simulation.visible(Fixture.path("posts/\(a)/text/k3")) == Node(.string(text)))
    }
}
