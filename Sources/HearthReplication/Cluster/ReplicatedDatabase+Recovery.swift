import HearthCluster
import HearthDatabase
import HearthSystem

/// How a cluster node brings its shards back at startup: each shard from its latest stored snapshot, then the
/// entries its group's log had committed after it.
extension ReplicatedDatabase {
    /// One shard as recovery left it.
    struct RecoveredShard {
        var machine: ShardStateMachine
        /// The stored snapshot the shard started from, with its Raft index.
        var snapshot: (ShardSnapshot, index: UInt64)?
        /// What the committed entries after it changed, in order.
        var applied: [ShardApplied]
        /// What the shard's log starts from.
        var log: RaftShardLog.Recovered
        /// The snapshot's metadata, when its group's log had not recorded it yet (the node stopped in between) and
        /// the group was started from it: the record is written once the group runs.
        var unrecorded: RaftSnapshotMetadata?
        /// The committed entry recovery could not apply, as the group's running replica would report it: the
        /// shard is recovered through the entry before it, and its replica starts halted there.
        var halt: RaftApplyHalt?
    }

    /// Restores `shard` from its newest usable stored snapshot (if any; `loadSnapshot` falls back from a damaged
    /// one) and the committed entries after it in `recovered`. The group's log keeps reaching back to its cut (the
    /// older snapshot kept) when it holds the snapshot's entry; otherwise (an installed snapshot whose marker the
    /// log had not recorded yet) it is made to start at the snapshot, as Raft installs one. A committed entry that
    /// does not decode as a shard entry (written by a newer release, or damaged) does not stop the node: the shard is
    /// recovered through the entry before it and `halt` says where its replica stops, as `RaftShardLog.committed`
    /// does when it meets such an entry at runtime.
    /// - Throws: `CommitRecordError` when the log and the stored snapshots do not fit together; `StorageError` when
    ///   no snapshot the log reaches is usable.
    static func recover(
        shard: Int, router: ShardRouter, store: ShardSnapshotStore, recovered: inout ReplicationService.Recovered,
        log logger: Log
    ) async throws -> RecoveredShard {
        let group = RaftGroupID(UInt32(shard))
        var result = RecoveredShard(
            machine: ShardStateMachine(shard: shard, spineDepth: router.shardDepth), applied: [],
            log: RaftShardLog.Recovered())
        guard var state = recovered[group] else {
            if try store.latestIndex(shard: shard) > 0 {
                throw CommitRecordError(
                    "shard \(shard) has a stored snapshot but the write-ahead log holds nothing of its group; the "
                        + "log was lost")
            }
            return result
        }
        var from: UInt64 = 0
        if let stored = try await Self.loadSnapshot(
            shard: shard, router: router, store: store, logCut: state.snapshot.index, log: logger)
        {
            let metadata = stored.metadata
            let payload = stored.payload
            guard metadata.index >= state.snapshot.index else {
                throw CommitRecordError(
                    "shard \(shard)'s log starts after entry \(state.snapshot.index) but its newest stored snapshot "
                        + "is at \(metadata.index); the snapshot that log needs is missing")
            }
            if metadata.index > state.snapshot.index {
                if !state.entries.contains(where: { $0.index == metadata.index && $0.term == metadata.term }) {
                    state.entries = []
                    state.snapshot = metadata
                    result.unrecorded = metadata
                }
                state.hardState.commit = max(state.hardState.commit, metadata.index)
                recovered[group] = state
            }
            from = metadata.index
            result.machine = payload.snapshot.machine
            result.snapshot = (payload.snapshot, metadata.index)
            result.log.terms = payload.terms.truncated(through: from)
            result.log.terms.record(index: from, term: metadata.term)
            result.log.snapshotIndex = from
        } else if state.snapshot.index > 0 {
            throw CommitRecordError(
                "shard \(shard)'s log starts after entry \(state.snapshot.index) but no snapshot of it is stored")
        }
        let commit = state.hardState.commit
        for entry in state.entries where entry.index > from && entry.index <= commit {
            if case .command(let bytes) = entry.payload {
                do {
                    let decoded = try RaftShardLog.shardEntry(bytes, at: entry, shard: shard)
                    result.applied.append(try result.machine.apply(decoded.entry, at: decoded.index))
                } catch let error as RaftApplyHalt {
                    result.halt = error
                    break
                } catch {
                    result.halt = RaftApplyHalt(
                        group: group, index: entry.index, term: entry.term, reason: "\(error)",
                        cause: error is ShardEntryGapError ? .damagedLog : .unreadable)
                    break
                }
            }
            result.log.terms.record(index: entry.index, term: entry.term)
        }
        result.log.delivered = result.halt.map { $0.index - 1 } ?? max(commit, from)
        return result
    }
}
