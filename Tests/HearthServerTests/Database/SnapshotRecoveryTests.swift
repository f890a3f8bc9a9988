import Foundation
import HearthCore
import HearthStorage
import HearthTestKit
import HearthWire
import Synchronization
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// Snapshot format 3 keeps each shard's log position, its prepared transactions and the decisions they need; a node
/// recovered from a snapshot plus the log after it is the node recovered from the whole log.
@Suite struct SnapshotRecoveryTests {
    private static let router = ShardRouter(shardCount: 3, shardDepth: 2)

    /// Writes `capture` to a snapshot file of its own and reads it back.
    private static func roundTrip(_ capture: ViewSnapshot, directory: String) async throws -> SnapshotContent.Decoded {
        let store = try SnapshotStore(directory: directory + "/\(capture.sequence)")
        try store.write(lsn: capture.sequence) { writer in
            try SnapshotContent.encode(capture, depth: Self.router.shardDepth, into: &writer)
        }
        let latest = try #require(try store.latest())
        return try await SnapshotContent.decode(try store.read(latest), parallelism: 2)
    }

    private static func intent(
        _ mutations: [Mutation], anchor: Int, participants: [Int], now: Int64, origin: WriteOrigin? = nil
    ) -> ShardIntent {
        ShardIntent(
            write: ShardWrite(namespace: "default", mutations: mutations, now: now, origin: origin),
            plan: ShardTransactionPlan(anchor: anchor, participants: participants))
    }

    @Test func version3KeepsIndexesIntentsAndDecisions() async throws {
        let directory = try TemporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = TransactionID(rawValue: 0xFFFF_FFFF_FFFF_FFF0)
        let second = TransactionID(rawValue: 2)
        let intents: [[TransactionID: ShardIntent]] = [
            [
                first: Self.intent(
                    [
                        try Fixture.set("posts/p1/n", #"{".sv":{"increment":1}}"#),
                        .setPriority(Fixture.path("posts/p1"), try Fixture.value(#"{".sv":"timestamp"}"#)),
                    ], anchor: 2, participants: [0, 1, 2], now: 1_700_000_000_000),
                second: Self.intent(
                    [], anchor: 2, participants: [0, 2], now: 5,
                    origin: try WriteOrigin(client: "app-1", sequence: 9, settledBelow: 4)),
            ],
            [
                first: Self.intent(
                    [try Fixture.set("meta", #"{"tab":"a\tb","line":"a\nb\u2028"}"#)], anchor: 2,
                    participants: [0, 1, 2], now: -3)
            ],
            [:],
        ]
        let decisions: [[TransactionID: Bool]] = [[:], [TransactionID(rawValue: 9): true], [second: false]]
        let roots = ["default": try Fixture.node(#"{"posts":{"p1":{"n":1}},"meta":"x"}"#), "other": Node(.int(3))]
        var sessions = [WriteSessions](repeating: WriteSessions(), count: 3)
        sessions[0].record(.init(origin: try WriteOrigin(client: "a", sequence: 3, settledBelow: 2), now: 10))
        sessions[0].record(.init(origin: try WriteOrigin(client: "a", sequence: 5, settledBelow: 2), now: 20))
        sessions[0].record(.init(origin: try WriteOrigin(client: "b_2", sequence: 1, settledBelow: 0), now: 15))
        sessions[2].record(.init(origin: try WriteOrigin(client: "c", sequence: 7, settledBelow: 7), now: 30))
        let capture = ViewSnapshot(
            sequence: 12, roots: roots, appliedIndex: [4, 0, 7], intents: intents, decisions: decisions,
            sessions: sessions)
        let decoded = try await Self.roundTrip(capture, directory: directory)
        #expect(decoded.roots == roots)
        #expect(decoded.appliedIndex == [0: 4, 1: 0, 2: 7])
        for (shard, expected) in intents.enumerated() {
            let found = decoded.intents[shard] ?? [:]
            #expect(Set(found.keys) == Set(expected.keys), "shard \(shard)")
            for (transaction, intent) in expected {
                #expect(found[transaction]?.bytes(transaction) == intent.bytes(transaction), "shard \(shard)")
            }
        }
        #expect(decoded.decisions == [1: [TransactionID(rawValue: 9): true], 2: [second: false]])
        #expect(decoded.sessions == [0: sessions[0], 2: sessions[2]])
        #expect(decoded.intents[0]?[second]?.write.origin == intents[0][second]?.write.origin)
    }

    /// On one log whose records hold one entry each, snapshots fall between a transaction's prepare and finish; on
    /// one whose parts commit together, between whole transactions.
    @Test(arguments: [41, 42, 43] as [UInt64], [.oneLogWithoutGroups, .oneLog] as [SimulatedShardLog.Ordering])
    func aSnapshotPlusTheLogTailRecoversWhatTheWholeLogRecovers(
        seed: UInt64, ordering: SimulatedShardLog.Ordering
    ) async throws {
        let directory = try TemporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let posts = Fixture.path("posts")
        let keys = try #require(Fixture.keys("p", under: posts, router: Self.router, shards: [0, 1, 2]))
        let captured = Mutex<[ViewSnapshot]>([])
        let simulation = Simulation(router: Self.router, ordering: ordering, seed: seed) { capture in
            guard let capture else { return }
            captured.withLock { captures in
                if captures.last?.sequence != capture.sequence { captures.append(capture) }
            }
        }
        // A client of single-shard increments and timestamps, and one of two-shard updates, in a seeded random
        // order of jobs and commits, so snapshots fall between a transaction's records.
        simulation.spawn { node in
            var random = SeededRandom(seed: seed)
            for now in Int64(1_000)..<1_012 {
                let key = keys[Int.random(in: 0..<keys.count, using: &random)]
                let leaf = ["n", "m"][Int.random(in: 0..<2, using: &random)]
                let value = Bool.random(using: &random) ? #"{".sv":{"increment":1}}"# : #"{".sv":"timestamp"}"#
                _ = try await node.write([Fixture.set("posts/\(key)/\(leaf)", value)], now: now)
            }
        }
        simulation.spawn { node in
            for round in 0..<4 {
                let update = [
                    try Fixture.set("posts/\(keys[round % 3])/star", "true"),
                    try Fixture.set("posts/\(keys[(round + 1) % 3])/n", #"{".sv":{"increment":10}}"#),
                ]
                _ = try await node.write(update, now: 2_000 + Int64(round))
            }
        }
        simulation.run(.random)
        let captures = captured.withLock { $0 }
        if ordering == .oneLogWithoutGroups {
            #expect(
                captures.contains { $0.intents.contains { !$0.isEmpty } }, "no snapshot held a prepared transaction")
        }
        let wal = simulation.records
        let final = simulation.visible(.root)
        let finalTrees = simulation.machines.map(\.trees)
        // Every snapshot holding a prepared transaction, and the first and the last of the others.
        let withIntents = captures.filter { $0.intents.contains { !$0.isEmpty } }
        let without = captures.filter { $0.intents.allSatisfy { $0.isEmpty } }
        for capture in withIntents.prefix(3) + [without.first, without.last].compactMap({ $0 }) {
            let decoded = try await Self.roundTrip(capture, directory: directory)
            let start = Int(capture.sequence)
            // Every crash point up to the next transaction's decision or so, then every fourth, and the end.
            let lengths = Array(start...min(start + 12, wal.count)) + stride(from: start + 13, to: wal.count, by: 4)
            for length in lengths + [wal.count] {
                let fromSnapshot = try Simulation(
                    router: Self.router, snapshot: decoded, records: wal[start..<length], after: capture.sequence)
                let fromLog = try Simulation(router: Self.router, snapshot: nil, records: wal[..<length], after: 0)
                let context = "seed \(seed): snapshot at \(start), crash after \(length) of \(wal.count)"
                let snapshotMachines = fromSnapshot.machines
                let logMachines = fromLog.machines
                #expect(fromSnapshot.visible(.root) == fromLog.visible(.root), "\(context)")
                #expect(snapshotMachines.map(\.trees) == logMachines.map(\.trees), "\(context)")
                #expect(snapshotMachines.map(\.lastIndex) == logMachines.map(\.lastIndex), "\(context)")
                if length == wal.count {
                    #expect(fromSnapshot.visible(.root) == final, "\(context): the state before the crash")
                    #expect(snapshotMachines.map(\.trees) == finalTrees, "\(context)")
                }
            }
        }
    }
}
