import HearthCore

/// What a Raft group's `Ready` asks the node's write-ahead log to hold, and what a restarted replica starts from.
///
/// Records of one Ready go out in an order that a crash part-way through cannot make inconsistent (a write-ahead
/// log may keep any prefix of a batch that was not synced): an installed snapshot's marker first (it replaces the
/// log), then the entries, then the hard state (whose commit index may point into those entries).
public enum RaftGroupStorage {
    /// The records to persist for `ready` of `group`, in order.
    public static func records(for ready: RaftReady, group: RaftGroupID) -> [RaftLogRecord] {
        let number = Int(group.rawValue)
        var records: [RaftLogRecord] = []
        if let snapshot = ready.snapshot {
            records.append(self.snapshotRecord(snapshot.metadata, group: group))
        }
        if let first = ready.entries.first {
            records.append(self.entriesRecord(ready.entries, first: first.index, group: group))
        }
        if let hardState = ready.hardState {
            var bytes: [UInt8] = []
            hardState.encode(to: &bytes)
            records.append(.hardState(group: number, bytes: bytes))
        }
        return records
    }

    /// The record of `entries`, the first at index `first`.
    public static func entriesRecord(
        _ entries: some Collection<RaftEntry>, first: UInt64, group: RaftGroupID
    ) -> RaftLogRecord {
        let encoded = entries.map { entry in
            var bytes: [UInt8] = []
            entry.encode(to: &bytes)
            return bytes
        }
        return .entries(group: Int(group.rawValue), firstIndex: first, entries: encoded)
    }

    /// The marker of a snapshot (or of a new group's founding membership, as a snapshot at index 0).
    public static func snapshotRecord(_ metadata: RaftSnapshotMetadata, group: RaftGroupID) -> RaftLogRecord {
        var bytes: [UInt8] = []
        metadata.encode(to: &bytes)
        return .snapshot(group: Int(group.rawValue), index: metadata.index, metadata: bytes)
    }

    /// The state a replica restarts from, out of what replay found for its group.
    /// - Throws: `RaftLogReplayError` when the records do not decode, or hold no snapshot marker (without one the
    ///   group's membership is unknown), or entries sit at the wrong index.
    public static func persistentState(
        _ recovered: RaftLogReplay.Group, group: RaftGroupID
    ) throws(RaftLogReplayError) -> RaftPersistentState {
        let number = Int(group.rawValue)
        guard let metadataBytes = recovered.snapshotMetadata else {
            throw RaftLogReplayError(
                group: number, detail: "no snapshot record holds its membership (not even the founding one)")
        }
        do {
            var reader = BinaryReader(bytes: metadataBytes)
            let metadata = try RaftSnapshotMetadata(from: &reader)
            var hardState = RaftHardState()
            if let bytes = recovered.hardState {
                var reader = BinaryReader(bytes: bytes)
                hardState = try RaftHardState(from: &reader)
            }
            var entries: [RaftEntry] = []
            entries.reserveCapacity(recovered.entries.count)
            for (offset, bytes) in recovered.entries.enumerated() {
                var reader = BinaryReader(bytes: bytes)
                let entry = try RaftEntry(from: &reader)
                let expected = recovered.snapshotIndex + UInt64(offset) + 1
                guard entry.index == expected else {
                    throw RaftLogReplayError(
                        group: number, detail: "the entry stored at index \(expected) says it is \(entry.index)")
                }
                entries.append(entry)
            }
            return RaftPersistentState(hardState: hardState, snapshot: metadata, entries: entries)
        } catch let error as BinaryDecodingError {
            throw RaftLogReplayError(group: number, detail: "a record cannot be decoded: \(error.detail)")
        } catch let error as RaftLogReplayError {
            throw error
        } catch {
            throw RaftLogReplayError(group: number, detail: "\(error)")
        }
    }
}
