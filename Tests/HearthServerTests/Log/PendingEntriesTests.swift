import HearthStorage
import HearthSystem
import Synchronization
import Testing

@testable import HearthDatabase

/// The single node's log hands a write loop turn's entries to the view together, in record order, and only once the
/// turn has ended and its last record is durable; entries appended outside turns go as their records become durable.
@Suite struct PendingEntriesTests {
    /// An entry of shard 0 at `index` (what it changed does not matter here).
    private static func entry(_ index: UInt64) -> ShardApplied {
        ShardApplied(shard: 0, index: index, effect: .bookkeeping(forgotten: []), recorded: nil)
    }

    /// Runs `body` with pending entries and a delivery thread; returns what was delivered, in order, as the entries'
    /// indexes with the sequence each batch reported.
    private static func deliveries(
        _ body: (PendingEntries, OrderedWorker<([ShardApplied], UInt64)>) -> Void
    ) async throws -> [(indexes: [UInt64], through: UInt64)] {
        let delivered = Mutex<[(indexes: [UInt64], through: UInt64)]>([])
        let delivery = try OrderedWorker<([ShardApplied], UInt64)>(name: "test-commits") { batches in
            delivered.withLock { $0 += batches.map { ($0.0.map(\.index), $0.1) } }
        }
        body(PendingEntries(), delivery)
        await delivery.finish()
        return delivered.withLock { $0 }
    }

    /// A turn's three records go together once the last is durable, though the first two were durable before the
    /// turn ended; a record of the next turn already durable when that turn ends goes at once.
    @Test func aTurnsEntriesGoTogetherOnceItsLastRecordIsDurable() async throws {
        let delivered = try await Self.deliveries { pending, delivery in
            var appending = Self.turns()
            for index in 1...3 as ClosedRange<UInt64> {
                Self.append([Self.entry(index)], to: &appending)
            }
            pending.durable(1...2, delivery: delivery)
            Self.endTurn(&appending, pending, delivery: delivery)
            pending.durable(3...3, delivery: delivery)
            Self.append([Self.entry(4)], to: &appending)
            pending.durable(4...4, delivery: delivery)
            Self.endTurn(&appending, pending, delivery: delivery)
        }
        #expect(delivered.map(\.indexes) == [[1, 2, 3], [4]])
        #expect(delivered.map(\.through) == [3, 4])
    }

    /// The log's appending state from record 1 on, holding turns (`LocalShardLog.holdTurns`).
    private static func turns() -> LocalShardLog.Appending {
        var appending = LocalShardLog.Appending(nextSequence: 1)
        appending.holdsTurns = true
        return appending
    }

    /// Appends a record with `applied` to the turn under way, as the log does in a turn (`LocalShardLog.enqueue`).
    private static func append(_ applied: [ShardApplied], to appending: inout LocalShardLog.Appending) {
        let sequence = appending.frame(now: 0) { $0.append(7) }
        appending.keep(.several(applied), at: sequence)
    }

    /// Ends the turn under way as the log does (`LocalShardLog.endTurn`, without taking subtrees; the records go
    /// nowhere).
    private static func endTurn(
        _ appending: inout LocalShardLog.Appending, _ pending: PendingEntries,
        delivery: OrderedWorker<([ShardApplied], UInt64)>
    ) {
        appending.batch.removeAll(keepingCapacityUpTo: 0)
        var entries: [ShardApplied] = []
        guard let sequence = appending.takeTurn(into: &entries) else { return }
        pending.publish(entries, through: sequence, delivery: delivery)
    }

    /// A turn that appended nothing hands nothing on, and the next turn starts empty.
    @Test func aTurnThatAppendedNothingHandsNothingOn() async throws {
        let delivered = try await Self.deliveries { pending, delivery in
            var appending = Self.turns()
            Self.endTurn(&appending, pending, delivery: delivery)
            Self.append([Self.entry(1), Self.entry(2)], to: &appending)
            pending.durable(1...1, delivery: delivery)
            Self.endTurn(&appending, pending, delivery: delivery)
            Self.endTurn(&appending, pending, delivery: delivery)
        }
        #expect(delivered.map(\.indexes) == [[1, 2]])
        #expect(delivered.map(\.through) == [1])
    }

    /// Several records made durable at once hand on each record's entries as its own run, in record order, with
    /// its own sequence number, and skip the records that kept none.
    @Test func recordsDurableTogetherGoAsRunsInRecordOrder() async throws {
        let delivered = try await Self.deliveries { pending, delivery in
            pending.state.withLock { $0.add(.several([Self.entry(1), Self.entry(2)]), at: 1) }
            pending.state.withLock { $0.add(.several([Self.entry(3)]), at: 3) }
            pending.durable(1...4, delivery: delivery)
            pending.state.withLock { $0.add(.several([Self.entry(4)]), at: 5) }
            pending.durable(5...5, delivery: delivery)
        }
        #expect(delivered.map(\.indexes) == [[1, 2], [3], [4]])
        #expect(delivered.map(\.through) == [1, 3, 5])
    }

    /// Outside turns each record's entries go as soon as it is durable, each record's as a run of its own.
    @Test func entriesOutsideTurnsGoAsTheirRecordsBecomeDurable() async throws {
        let delivered = try await Self.deliveries { pending, delivery in
            for index in 1...3 as ClosedRange<UInt64> {
                pending.state.withLock { $0.add(.several([Self.entry(index)]), at: index) }
            }
            pending.durable(1...1, delivery: delivery)
            pending.durable(2...3, delivery: delivery)
        }
        #expect(delivered.map(\.indexes) == [[1], [2], [3]])
        #expect(delivered.map(\.through) == [1, 2, 3])
    }
}
