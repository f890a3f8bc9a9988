import Foundation
import HearthCore
import HearthStorage
import HearthSystem
import HearthTestKit
import HearthWire
import Synchronization
import Testing

@testable import HearthDatabase
@testable import HearthNode

/// The writes handed to the write loop are moved, not copied: into its queue beside their batch, out of it in the
/// turn, and their mutations into the entries their shards log. What a write becomes is what it was before.
@Suite struct WriteLoopHandOffTests {
    private static func write(_ mutations: [Mutation]) -> LoopWrite {
        LoopWrite(namespace: "default", mutations: mutations, conditions: [], now: 1, origin: nil)
    }

    /// The answer to `write`, handed to the loop alone.
    private static func answer(_ database: Database, _ write: LoopWrite) async -> WriteBatch.Answer {
        await withCheckedContinuation { done in
            database.writes.submit(connection: 1, write) { done.resume(returning: $0) }
        }
    }

    private static func isCommitted(_ answer: WriteBatch.Answer) -> Bool {
        if case .success(.committed) = answer { return true }
        return false
    }

    /// A write spanning two shards, its mutations interleaved between them (one path set twice), that a prepared
    /// transaction obstructs takes the async path with every mutation, in its order: the later set of the path
    /// wins, and every other mutation is applied once the transaction is gone.
    @Test func anObstructedWriteSpanningShardsDetoursWhole() async throws {
        try await Database.withFresh { database in
            let router = database.coordinator.router
            let keys = try #require(Fixture.keys("p", under: Fixture.path("posts"), router: router, shards: [0, 1]))
            let (a, b) = (keys[0], keys[1])
            let heldShard = try #require(
                router.shards(namespace: "default", mutation: Fixture.path("posts/\(a)")).first)
            let held = TransactionID(rawValue: 11)
            let holding = ShardIntent(
                write: ShardWrite(namespace: "default", mutations: [try Fixture.set("posts/\(a)/n", "9")], now: 1),
                plan: ShardTransactionPlan(anchor: heldShard + 1, participants: [heldShard, heldShard + 1]))
            _ = try await database.writes.shards[heldShard].prepare(held, holding)
            let write = Self.write([
                try Fixture.set("posts/\(a)/n", "1"), try Fixture.set("posts/\(b)/x", "2"),
                try Fixture.set("posts/\(a)/m", "3"), try Fixture.set("posts/\(b)/y", "4"),
                try Fixture.set("posts/\(a)/n", "5"),
            ])
            let answer = Mutex<WriteBatch.Answer?>(nil)
            database.writes.submit(connection: 1, write) { committed in answer.withLock { $0 = committed } }
            try await Task.sleep(for: .milliseconds(50))
            #expect(answer.withLock { $0 } == nil, "the obstructed write waits for the prepared transaction")
            _ = try await database.writes.shards[heldShard].finish(held, commit: false)
            #expect(await eventually(seconds: 10) { answer.withLock { $0 } != nil })
            #expect(answer.withLock { $0 }.map(Self.isCommitted) == true)
            let root = database.view.root("default")
            let expected = [("posts/\(a)/n", 5), ("posts/\(b)/x", 2), ("posts/\(a)/m", 3), ("posts/\(b)/y", 4)]
            for (path, value) in expected {
                #expect(root.node(at: Fixture.path(path)) == Node(.int(Int64(value))), "\(path)")
            }
        }
    }

    /// A write spanning two shards whose increment in one of them no number can hold is refused whole, with nothing
    /// of either part applied; the same shards' next write commits both its parts (its entries reach the log and the
    /// view as they were made).
    @Test func aWriteSpanningShardsWithAnOverflowingIncrementIsRefusedWhole() async throws {
        try await Database.withFresh { database in
            let router = database.coordinator.router
            let keys = try #require(Fixture.keys("p", under: Fixture.path("posts"), router: router, shards: [0, 1]))
            let (a, b) = (keys[0], keys[1])
            let first = await Self.answer(
                database,
                Self.write([try Fixture.set("posts/\(a)/big", "1.7e308"), try Fixture.set("posts/\(b)/x", "1")]))
            #expect(Self.isCommitted(first))
            let overflowing = await Self.answer(
                database,
                Self.write([
                    try Fixture.set("posts/\(b)/x", "2"),
                    try Fixture.set("posts/\(a)/big", #"{".sv":{"increment":1e308}}"#),
                ]))
            guard case .failure(let error) = overflowing else {
                Issue.record("the overflowing write was answered \(overflowing)")
                return
            }
            #expect(error is UnrepresentableIncrementError)
            #expect(database.view.root("default").node(at: Fixture.path("posts/\(b)/x")) == Node(.int(1)))
            let last = await Self.answer(
                database,
                Self.write([try Fixture.set("posts/\(a)/big", "3"), try Fixture.set("posts/\(b)/x", "4")]))
            #expect(Self.isCommitted(last))
            let root = database.view.root("default")
            #expect(root.node(at: Fixture.path("posts/\(a)/big")) == Node(.int(3)))
            #expect(root.node(at: Fixture.path("posts/\(b)/x")) == Node(.int(4)))
        }
    }

    /// Many one-write batches of several connections handed over at once, more than the room a turn's queue keeps:
    /// every one is decided and answered committed, and each connection's writes are applied in the order it handed
    /// them over (its last value of a shared path is the one left).
    @Test func manyWritesHandedOverAtOnceAreEachDecidedInTheirConnectionsOrder() async throws {
        try await Database.withFresh { database in
            let (connections, perConnection) = (8, 120)
            let writes = try (0..<connections).map { connection in
                try (0..<perConnection).map { step in
                    Self.write([
                        try Fixture.set("c\(connection)/last", "\(step)"),
                        try Fixture.set("c\(connection)/n\(step)", "1"),
                    ])
                }
            }
            let committed = await withCheckedContinuation { (done: CheckedContinuation<Int, Never>) in
                let tally = Mutex((left: connections * perConnection, committed: 0))
                for step in 0..<perConnection {
                    for connection in 0..<connections {
                        database.writes.submitAcknowledged(
                            connection: UInt64(connection), writes[connection][step], tag: UInt64(step)
                        ) { _, answer in
                            let finished = tally.withLock { tally -> Int? in
                                tally.left -= 1
                                if Self.isCommitted(answer) { tally.committed += 1 }
                                return tally.left == 0 ? tally.committed : nil
                            }
                            if let finished { done.resume(returning: finished) }
                        }
                    }
                }
            }
            #expect(committed == connections * perConnection)
            let root = database.view.root("default")
            for connection in 0..<connections {
                #expect(root.node(at: Fixture.path("c\(connection)/last")) == Node(.int(Int64(perConnection - 1))))
                #expect(root.node(at: Fixture.path("c\(connection)")).childCount == perConnection + 1)
            }
        }
    }
}
