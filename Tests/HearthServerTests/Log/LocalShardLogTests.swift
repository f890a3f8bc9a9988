import Foundation
import HearthCore
import HearthStorage
import HearthTestKit
import HearthWire
import Synchronization
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// Every shard's log multiplexed onto the node's one write-ahead log: committed entries reach the view in record
/// order once durable, and a reopened log replays exactly what was appended.
@Suite struct LocalShardLogTests {
    private static func configuration() -> WALConfiguration {
        var configuration = WALConfiguration()
        configuration.fsync = .off
        return configuration
    }

    /// A log in `directory` that records each delivered batch's entries (shard and index) in `batches`.
    private static func openRecordingBatches(in directory: String, into batches: Batches) throws -> LocalShardLog {
        try LocalShardLog.open(
            directory: directory, configuration: Self.configuration(), fileSystem: PosixFileSystem()
        ) { runs, _ in
            batches.runs.withLock { $0.append(runs.joined().map { ($0.shard, $0.index) }) }
        }
    }

    @Test func entriesOfEveryShardCommitInRecordOrderAndReplayAfterReopening() async throws {
        let directory = try TemporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let received = Received()
        let log = try LocalShardLog.open(
            directory: directory, configuration: Self.configuration(), fileSystem: PosixFileSystem()
        ) { runs, _ in
            received.entries.withLock { $0 += runs.joined().map { ($0.shard, $0.index) } }
        }
        log.start()
        var machines = (0..<3).map { ShardStateMachine(shard: $0, spineDepth: 1) }
        var appended: [(position: ShardLogPosition, entry: ShardEntry)] = []
        for round in 0..<30 {
            let shard = [0, 2, 2, 1, 0][round % 5]
            let write = ShardWrite(
                namespace: "default", mutations: [try Fixture.set("k\(shard)/n", #"{".sv":{"increment":1}}"#)],
                now: Int64(round))
            guard case .appended(let entry, let applied) = machines[shard].write(write, conditions: []) else {
                Issue.record("round \(round): the write must append")
                return
            }
            appended.append((log.append(entry, applied: applied), entry))
        }
        for (position, _) in appended {
            try await log.waitUntilCommitted([position])
            #expect(
                await eventually {
                    received.entries.withLock { $0.contains { $0.0 == position.shard && $0.1 >= position.index } }
                }, "a durable entry is delivered")
        }
        let order = received.entries.withLock { $0 }
        #expect(order.map { $0.0 } == appended.map { $0.position.shard })
        #expect(order.map { $0.1 } == appended.map { $0.position.index })
        #expect(appended.map { $0.position.sequence } == Array(1...30))
        await log.close()

        let reopened = try LocalShardLog.open(
            directory: directory, configuration: Self.configuration(), fileSystem: PosixFileSystem()
        ) { _, _ in }
        #expect(reopened.lastRecoveredSequence == 30)
        var replayed: [(UInt64, ShardLogRecord)] = []
        try reopened.replay(after: 10) { replayed.append(($0, $1)) }
        #expect(replayed.map { $0.0 } == Array(11...30))
        for ((sequence, record), (position, entry)) in zip(replayed, appended.dropFirst(10)) {
            guard case .entry(let shard, let index, let decoded) = record else {
                Issue.record("record \(sequence) decoded as \(record)")
                continue
            }
            #expect(shard == position.shard && index == position.index)
            #expect(decoded.bytes == entry.bytes)
        }
        reopened.start()
        await reopened.close()
    }

    /// A transaction's parts appended together take one record: one sequence number, delivered in one batch in
    /// the order given, and replayed as one record holding both.
    @Test func entriesAppendedTogetherShareOneRecordAndReplayTogether() async throws {
        let directory = try TemporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let batches = Batches()
        let log = try Self.openRecordingBatches(in: directory, into: batches)
        #expect(log.appendsTogether)
        log.start()
        var machines = (0..<3).map { ShardStateMachine(shard: $0, spineDepth: 1) }
        let transaction = TransactionID(rawValue: 77)
        let plan = ShardTransactionPlan(anchor: 2, participants: [0, 2])
        var parts: [(entry: ShardEntry, applied: ShardApplied)] = []
        for shard in plan.participants {
            let intent = ShardIntent(
                write: ShardWrite(namespace: "default", mutations: [try Fixture.set("k\(shard)/on", "true")], now: 1),
                plan: plan)
            #expect(machines[shard].obstacleToCommit(transaction, intent) == nil)
            guard case .appended(let entry, let applied) = machines[shard].commit(transaction, intent) else {
                Issue.record("shard \(shard): the part must append")
                return
            }
            parts.append((entry, applied))
        }
        let positions = log.appendTogether(parts.map(\.entry), applied: parts.map(\.applied))
        #expect(positions.map(\.shard) == [0, 2] && positions.map(\.index) == [1, 1])
        #expect(positions.map(\.sequence) == [1, 1])
        try await log.waitUntilCommitted(positions)
        #expect(await eventually { batches.runs.withLock { !$0.isEmpty } })
        #expect(batches.runs.withLock { $0.flatMap { $0 } }.map(\.0) == [0, 2])
        await log.close()

        let reopened = try LocalShardLog.open(
            directory: directory, configuration: Self.configuration(), fileSystem: PosixFileSystem()
        ) { _, _ in }
        var replayed: [ShardLogRecord] = []
        try reopened.replay(after: 0) { replayed.append($1) }
        #expect(replayed.count == 1)
        #expect(replayed.first?.shardEntries.map(\.shard) == [0, 2])
        reopened.start()
        await reopened.close()
    }

    /// In the write loop's turns, records are framed straight into the log's batch and queued together at the
    /// turn's end: nothing of a turn is durable before it ends, its records keep consecutive numbers after the ones
    /// queued outside turns, they are written in one batch, their entries reach the view once, together, and the
    /// segment holds byte for byte the frames of the same records encoded and queued one at a time.
    @Test func aTurnsRecordsAreQueuedTogetherAtItsEndAsTheSameFrames() async throws {
        let directory = try TemporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let batches = Batches()
        let log = try Self.openRecordingBatches(in: directory, into: batches)
        log.start()
        var machines = (0..<2).map { ShardStateMachine(shard: $0, spineDepth: 1) }
        var expected: [UInt8] = []
        /// Applies a write of `shard` and appends it (alone, or with a part of the other shard), framing the
        /// record the way the log framed records before turns (`ShardLogRecord.encode`, `WALFrame.encode`).
        func append(_ round: Int, together: Bool) throws -> [ShardLogPosition] {
            var parts: [(entry: ShardEntry, applied: ShardApplied)] = []
            for shard in together ? [0, 1] : [round % 2] {
                let write = ShardWrite(
                    namespace: "default",
                    mutations: [try Fixture.set("k\(shard)/n\(round)", #"{".sv":{"increment":1}}"#)], now: 1)
                guard case .appended(let entry, let applied) = machines[shard].write(write, conditions: []) else {
                    Issue.record("round \(round): the write must append")
                    return []
                }
                parts.append((entry, applied))
            }
            let positions =
                together
                ? log.appendTogether(parts.map(\.entry), applied: parts.map(\.applied))
                : [log.append(parts[0].entry, applied: parts[0].applied)]
            var record: [UInt8] = []
            if together {
                ShardLogRecord.encode(
                    together: parts.map { (shard: $0.applied.shard, index: $0.applied.index, entry: $0.entry) },
                    into: &record)
            } else {
                record = ShardLogRecord.encode(
                    parts[0].entry, shard: parts[0].applied.shard, index: parts[0].applied.index)
            }
            WALFrame.encode(lsn: positions[0].sequence, payload: record, into: &expected)
            return positions
        }
        let outside = try append(0, together: false)
        try await log.waitUntilCommitted(outside)
        #expect(await eventually { batches.runs.withLock { $0.count == 1 } })
        log.holdTurns()
        for shard in machines.indices { machines[shard].defersSubtrees = true }
        var turn: [ShardLogPosition] = []
        for round in 1...6 { turn += try append(round, together: round == 3) }
        #expect(turn.map(\.sequence) == [2, 3, 4, 4, 5, 6, 7])
        #expect(log.lastSequence == 7)
        let waiting = Task { try await log.waitUntilCommitted([turn[0]]) }
        try await Task.sleep(for: .milliseconds(50))
        #expect(log.statistics.records == 1, "nothing of the turn is written before it ends")
        log.endTurn { shard, namespace in machines[shard].trees[namespace] ?? .empty }
        try await waiting.value
        try await log.waitUntilCommitted(turn)
        #expect(log.statistics.records == 7)
        #expect(log.statistics.batches == 2, "the turn's records are written in one batch")
        #expect(await eventually { batches.runs.withLock { $0.count == 2 } })
        #expect(batches.runs.withLock { $0.last?.map(\.0) } == [1, 0, 0, 1, 0, 1, 0])
        #expect(batches.runs.withLock { $0.last?.map(\.1) } == [1, 2, 3, 2, 4, 3, 5])
        await log.close()
        let segment = WALSegment(firstLSN: 1, directory: directory).path
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: segment))) == expected)
    }

    @Test func aRecordThisVersionCannotReadStopsReplayNamingTheRecordFileAndOffset() async throws {
        let directory = try TemporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let wal = try WriteAheadLog(directory: directory, configuration: Self.configuration()) { _ in }
        wal.start()
        let entry = ShardEntry.decide(TransactionID(rawValue: 1), commit: false, nil)
        _ = wal.enqueue(ShardLogRecord.encode(entry, shard: 0, index: 1))
        try await wal.waitUntilDurable(wal.enqueue([9, 0, 0]))
        _ = wal.enqueue(ShardLogRecord.encode(entry, shard: 0, index: 2))
        await wal.close()

        let log = try LocalShardLog.open(
            directory: directory, configuration: Self.configuration(), fileSystem: PosixFileSystem()
        ) { _, _ in }
        var replayed = 0
        let error = try #require(throws: CommitRecordError.self) {
            try log.replay(after: 0) { _, _ in replayed += 1 }
        }
        #expect(replayed == 1, "nothing after the unreadable record is applied")
        #expect(error.detail.contains("record 2") && error.detail.contains(directory))
        #expect(error.detail.contains(".log at byte "), "names the segment file and offset: \(error.detail)")
        #expect(error.description.contains("Start the Hearth release that wrote it"), "says what to do")
        #expect(!error.description.contains(".."), "reads as sentences: \(error.description)")
        log.start()
        await log.close()
    }
}

/// What the log handed to the view, in order: (shard, index).
private final class Received: Sendable {
    let entries = Mutex<[(Int, UInt64)]>([])
}

/// Each batch a log delivered, as its entries' shards and indexes.
private final class Batches: Sendable {
    let runs = Mutex<[[(Int, UInt64)]]>([])
}
