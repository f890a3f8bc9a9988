import HearthStorage

/// Log compaction for every group of the node: a group's log is cut at a snapshot the application stored, and the
/// node's write-ahead log drops its sealed segments once no group needs a record in them (`RaftLogRetention`).
extension ReplicationService {
    /// Drops `group`'s log through `index`, where the application has stored a snapshot, and makes the cut durable
    /// in the write-ahead log, so a restart starts the group's log there.
    /// - Throws: `RaftError.indexOutOfRange` when the replica has not applied `index` yet, or already compacted
    ///   past it; the log's `StorageError` when the cut cannot be made durable.
    package func compact(_ group: RaftGroupID, through index: UInt64) async throws {
        guard let host = self.host(group) else { return }
        let metadata = try host.withNode { node throws(RaftError) in try node.compact(through: index) }
        try await self.recordSnapshot(metadata, group: group)
    }

    /// Writes `group`'s snapshot marker and waits until it is durable (a restart found a stored snapshot newer than
    /// the log's own cut, or `compact` made a new cut).
    package func recordSnapshot(_ metadata: RaftSnapshotMetadata, group: RaftGroupID) async throws {
        try await self.writer.persist([RaftGroupStorage.snapshotRecord(metadata, group: group)])
    }

    /// Lets the write-ahead log drop what no group needs: deletes its sealed segments as far as every group allows,
    /// asks the groups that hold them back only by an old hard state or snapshot record to write those again, and
    /// returns the groups whose entries hold them back (each needs a snapshot covering those entries).
    package func releaseLog() -> [RaftGroupID] {
        let sealed = self.writer.wal.sealedThrough
        guard sealed > 0 else { return [] }
        let (truncatable, holders) = self.writer.withRetention { retention in
            (retention.truncatableThrough, retention.holdingBack(through: sealed))
        }
        if truncatable > 0 { self.writer.wal.truncate(through: min(truncatable, sealed)) }
        var needSnapshots: [RaftGroupID] = []
        for (number, reasons) in holders.sorted(by: { $0.key < $1.key }) {
            let group = RaftGroupID(UInt32(number))
            if reasons.contains(.entries) { needSnapshots.append(group) }
            if reasons.contains(.hardState) || reasons.contains(.snapshot) { self.host(group)?.rewriteDurableState() }
        }
        return needSnapshots
    }
}
