import HearthSystem
import Synchronization

@testable import HearthDatabase
@testable import HearthServer

/// Every shard's log kept in memory, where a test decides when each appended entry becomes committed: the seam's
/// deterministic stand-in, so tests run the real `Coordinator`, `ShardActor`s and read view through any order of
/// commits, and crash between any two of them.
///
/// Nothing commits by itself. The test calls `commit(_:of:)` to make the oldest uncommitted entries durable, in
/// append order or one shard at a time (`Ordering`); they go to `onCommitted`, then waiters resume, as with
/// `LocalShardLog`. `crash()` loses every entry not yet committed and fails every wait; what survives is
/// `committedRecords`, the log records a recovery replays.
final class SimulatedShardLog: ShardLog {
    /// Which orders of commits the log allows, and so what `waitUntilOrdered` must wait for.
    enum Ordering: Sendable {
        /// One log for every shard, as `LocalShardLog`: entries commit in append order, so an entry is ordered
        /// before every later one as soon as it is appended, and one record may hold entries of several shards
        /// (`appendTogether`), so a transaction's parts commit at once.
        case oneLog
        /// One log, as `oneLog`, whose records never hold several entries: every transaction prepares, decides and
        /// finishes, as one node's do when a part cannot commit at once.
        case oneLogWithoutGroups
        /// A log per shard, as a Raft group per shard: each shard's entries commit in its own order, independently
        /// of the other shards', so an entry is ordered before later ones elsewhere only once it is committed.
        case perShard
    }

    /// One record: an entry, or entries of several shards appended together (committed in one step).
    private struct Slot {
        var positions: [ShardLogPosition]
        var bytes: [UInt8]
        var applied: [ShardApplied]
    }

    private struct Waiter {
        var positions: [ShardLogPosition]
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        /// Appended and not committed, in append order.
        var uncommitted: [Slot] = []
        /// Per shard: the newest committed index.
        var committedIndex: [UInt64]
        /// The records committed so far, in commit order.
        var committed: [[UInt8]] = []
        var waiters: [Waiter] = []
        var nextSequence: UInt64
        var isCrashed = false

        func isCommitted(_ positions: [ShardLogPosition]) -> Bool {
            positions.allSatisfy { $0.index <= self.committedIndex[$0.shard] }
        }
    }

    let ordering: Ordering
    /// The commit sequence number of the last record committed before this log opened.
    let baseSequence: UInt64
    private let state: Lock<State>
    private let onCommitted: @Sendable ([ShardApplied], UInt64) -> Void

    /// - Parameters:
    ///   - lastIndex: per shard, the newest entry already in the log (recovered); appends continue after it.
    ///   - sequence: how many records were committed before this log opened; batches go to `onCommitted` with the
    ///     commit sequence number of their last record, counted on from here.
    init(
        ordering: Ordering, lastIndex: [UInt64], sequence: UInt64,
        onCommitted: @escaping @Sendable ([ShardApplied], UInt64) -> Void
    ) {
        self.ordering = ordering
        self.baseSequence = sequence
        self.state = Lock(State(committedIndex: lastIndex, nextSequence: sequence + 1))
        self.onCommitted = onCommitted
    }

    func append(_ entry: ShardEntry, applied: ShardApplied) -> ShardLogPosition {
        let bytes = ShardLogRecord.encode(entry, shard: applied.shard, index: applied.index)
        return self.state.withLock { state in
            let position = ShardLogPosition(shard: applied.shard, index: applied.index, sequence: state.nextSequence)
            state.nextSequence += 1
            if !state.isCrashed {
                state.uncommitted.append(Slot(positions: [position], bytes: bytes, applied: [applied]))
            }
            return position
        }
    }

    /// One log (`Ordering.oneLog`) holds entries of several shards in one record.
    var appendsTogether: Bool { self.ordering == .oneLog }

    func appendTogether(_ entries: consuming [ShardEntry], applied: [ShardApplied]) -> [ShardLogPosition] {
        precondition(self.ordering == .oneLog, "a log per shard cannot append entries of several shards together")
        let bytes = ShardLogRecord.encode(together: zip(applied, entries).map { ($0.shard, $0.index, $1) })
        return self.state.withLock { state in
            let positions = applied.map {
                ShardLogPosition(shard: $0.shard, index: $0.index, sequence: state.nextSequence)
            }
            state.nextSequence += 1
            if !state.isCrashed {
                state.uncommitted.append(Slot(positions: positions, bytes: bytes, applied: applied))
            }
            return positions
        }
    }

    func waitUntilCommitted(_ positions: [ShardLogPosition]) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let immediate: Result<Void, any Error>? = self.state.withLock { state in
                if state.isCrashed { return .failure(SimulatedCrashError()) }
                if state.isCommitted(positions) { return .success(()) }
                state.waiters.append(Waiter(positions: positions, continuation: continuation))
                return nil
            }
            if let immediate { continuation.resume(with: immediate) }
        }
    }

    func waitUntilOrdered(_ position: ShardLogPosition) async throws {
        switch self.ordering {
        case .oneLog, .oneLogWithoutGroups: return
        case .perShard: try await self.waitUntilCommitted([position])
        }
    }

    /// Shards with entries appended and not yet committed, ascending.
    var uncommittedShards: [Int] {
        self.state.withLock { Set($0.uncommitted.flatMap { $0.positions.map(\.shard) }).sorted() }
    }

    /// The records committed since this log opened, in commit order.
    var committedRecords: [[UInt8]] { self.state.withLock { $0.committed } }

    /// Commits the oldest `count` uncommitted records (fewer when fewer wait): of `shard` alone, or of the whole log
    /// in append order when `shard` is nil. Hands their entries to `onCommitted`, then resumes the waiters they
    /// satisfy.
    func commit(_ count: Int, of shard: Int? = nil) {
        precondition(
            shard == nil || self.ordering == .perShard, "one log commits in append order; shard \(shard ?? -1) asked")
        let (batch, sequence, resumed) = self.state.withLock { state -> ([ShardApplied], UInt64, [Waiter]) in
            guard !state.isCrashed else { return ([], 0, []) }
            var taken: [Slot] = []
            state.uncommitted.removeAll { slot in
                guard taken.count < count, shard == nil || slot.positions.allSatisfy({ $0.shard == shard }) else {
                    return false
                }
                taken.append(slot)
                return true
            }
            for slot in taken {
                for position in slot.positions { state.committedIndex[position.shard] = position.index }
                state.committed.append(slot.bytes)
            }
            let committed = state
            let resumed = committed.waiters.filter { committed.isCommitted($0.positions) }
            state.waiters.removeAll { committed.isCommitted($0.positions) }
            return (taken.flatMap(\.applied), self.baseSequence + UInt64(state.committed.count), resumed)
        }
        guard !batch.isEmpty else { return }
        self.onCommitted(batch, sequence)
        for waiter in resumed { waiter.continuation.resume() }
    }

    /// The node stops: every entry not yet committed is lost, every wait fails, and later appends are dropped.
    func crash() {
        let failed = self.state.withLock { state in
            state.isCrashed = true
            state.uncommitted = []
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in failed { waiter.continuation.resume(throwing: SimulatedCrashError()) }
    }
}

/// A wait on a `SimulatedShardLog` whose node crashed before the entry was committed.
struct SimulatedCrashError: Error, CustomStringConvertible {
    var description: String {
        "The simulated node crashed before the entry was committed; recover the node from its committed records."
    }
}
