import HearthCluster
import HearthDatabase
import HearthSystem

/// A shard's snapshots as its log sees them: the one a leader sends (installed in place of the shard's state), the
/// latest stored one (served to lagging replicas, and the base of a rebuild), and the bookkeeping of taking one.
extension RaftShardLog {
    /// Installs `snapshot` from the shard's leader in place of the shard's state: stores it durably (before the group
    /// records that its log now starts there), replaces the actor's machine (`applier.restore`), hands it to the read
    /// view (which shows it once the other shards have caught up with it), and resolves the writes waiting on
    /// entries it covers.
    /// - Throws: `RaftApplyHalt` when the snapshot cannot be decoded (a newer release's format, in a rolling
    ///   upgrade: the group's replica stops, nothing is stored) or reaches less far into the shard than this replica
    ///   already applied (a damaged log: the same); `StorageError` when it cannot be stored.
    func install(shard: Int, _ snapshot: RaftSnapshot, restoring applier: Applier) async throws {
        let payload: ShardSnapshotPayload
        do {
            payload = try await ShardSnapshotPayload.decode(
                snapshot.data, shard: shard, spineDepth: self.router.shardDepth)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            let detail = (error as? CommitRecordError)?.detail ?? "\(error)"
            throw RaftApplyHalt(
                group: RaftGroupID(UInt32(shard)), index: snapshot.metadata.index, term: snapshot.metadata.term,
                reason: "the snapshot the leader sent does not decode as a shard snapshot this release reads "
                    + "(\(detail))")
        }
        // A group applies in order (this install, then its entries), so what the view has received cannot move
        // between this check and the restore below.
        let received = self.view.receivedIndex(shard: shard)
        guard payload.snapshot.machine.lastIndex >= received else {
            throw RaftApplyHalt(
                group: RaftGroupID(UInt32(shard)), index: snapshot.metadata.index, term: snapshot.metadata.term,
                reason: "the leader's snapshot holds shard \(shard) through its entry "
                    + "\(payload.snapshot.machine.lastIndex), behind entry \(received) this replica already applied",
                cause: .damagedLog)
        }
        try self.store.write(snapshot, shard: shard)
        await applier.restore(payload.snapshot.machine)
        let index = snapshot.metadata.index
        self.view.restore(payload.snapshot, position: index)
        let (resumed, terms) = self.shards.withLock { shards -> ([Waiter], CommittedTerms) in
            guard var state = shards[shard] else { return ([], CommittedTerms()) }
            state.terms = payload.terms.truncated(through: index)
            state.terms.record(index: index, term: snapshot.metadata.term)
            state.delivered = max(state.delivered, index)
            state.pending.removeAll()
            state.needsRebuild = false
            state.snapshotIndex = index
            state.bytesSinceSnapshot = 0
            let term = snapshot.metadata.term
            let ready = state.waiters.filter { $0.isSettled(committedThrough: index, term: term) }
            state.waiters.removeAll { $0.isSettled(committedThrough: index, term: term) }
            shards[shard] = state
            return (ready, state.terms)
        }
        Self.resume(resumed, terms: terms, shard: shard)
    }

    /// The shard's latest stored snapshot, for a replica too far behind for the log; nil when it has none (or it
    /// cannot be read: the leader reports the attempt failed and tries again later).
    func latestSnapshot(shard: Int) -> RaftSnapshot? {
        try? self.store.latest(shard: shard)
    }

    /// The terms of the shard's committed entries through `index`, for a snapshot taken there.
    func terms(shard: Int, through index: UInt64) -> CommittedTerms {
        self.shards.withLock { $0[shard]?.terms.truncated(through: index) ?? CommittedTerms() }
    }

    /// A snapshot of the shard through `index` is stored and the log compacted there: the next is due from here.
    func snapshotTaken(shard: Int, at index: UInt64) {
        self.shards.withLock { shards in
            guard var state = shards[shard], index > state.snapshotIndex else { return }
            state.snapshotIndex = index
            state.bytesSinceSnapshot = 0
            shards[shard] = state
        }
    }

    /// The Raft index of the shard's latest stored snapshot.
    func snapshotIndex(shard: Int) -> UInt64 {
        self.shards.withLock { $0[shard]?.snapshotIndex ?? 0 }
    }

    /// The shard's committed state through `index` for a rebuild: the latest stored snapshot's machine (nil when
    /// there is none, and the log still starts at its beginning) and the committed commands after it.
    /// - Throws: when the stored snapshot cannot be read or decoded; `RaftApplyHalt` at a committed command that is
    ///   not a shard entry, or when no stored snapshot reaches the log's cut (the state cannot be rebuilt).
    func committedState(shard: Int, through index: UInt64) async throws
        -> (base: ShardStateMachine?, commands: [(ShardEntry, UInt64)])
    {
        var base: ShardStateMachine?
        var from: UInt64 = 0
        if let snapshot = try self.store.latest(shard: shard), snapshot.metadata.index <= index {
            let payload = try await ShardSnapshotPayload.decode(
                snapshot.data, shard: shard, spineDepth: self.router.shardDepth)
            base = payload.snapshot.machine
            from = snapshot.metadata.index
        }
        guard let host = self.service.host(RaftGroupID(UInt32(shard))) else { return (base, []) }
        let cut = host.snapshotCut.index
        guard from >= cut else {
            // This replica cannot rebuild the shard's state: its group stops here alone, as for an entry it cannot
            // read, rather than the node crashing (or applying the next entries to a machine that ran ahead).
            throw RaftApplyHalt(
                group: RaftGroupID(UInt32(shard)), index: index + 1, term: host.term(at: index + 1) ?? 0,
                reason: "rebuilding the shard's state through entry \(index) needs a stored snapshot at or after the "
                    + "log's cut \(cut), but this node's newest readable one is at \(from) (its snapshot store lost "
                    + "one)")
        }
        var commands: [(ShardEntry, UInt64)] = []
        for entry in host.entries(through: index) {
            guard entry.index > from, case .command(let bytes) = entry.payload else { continue }
            commands.append(try Self.shardEntry(bytes, at: entry, shard: shard))
        }
        return (base, commands)
    }
}
