import HearthCluster
import HearthDatabase
import HearthStorage
import HearthSystem

extension ReplicatedDatabase {
    /// A shard's stored snapshot recovery starts from: its Raft metadata and its decoded content.
    struct StoredShardSnapshot {
        let metadata: RaftSnapshotMetadata
        let payload: ShardSnapshotPayload
    }

    /// Reads `shard`'s newest stored snapshot. When it is damaged (truncated, failing its checksum, or not
    /// decodable), logs a warning naming it and falls back to the older one the shard keeps, provided the group's
    /// log (which starts after entry `logCut`) holds every entry after it; or to no snapshot at all when the log
    /// starts at the group's beginning. Damaged files are renamed `<name>.broken` once a fallback is found, never
    /// deleted. Nil when the shard has no snapshot.
    ///
    /// - Throws: `StorageError` `.damagedSnapshot` naming every damaged file and what to do when no snapshot the
    ///   log reaches is usable: the member refuses to start rather than forget entries it acknowledged.
    static func loadSnapshot(
        shard: Int, router: ShardRouter, store: ShardSnapshotStore, logCut: UInt64, log logger: Log
    ) async throws -> StoredShardSnapshot? {
        var damaged: [(snapshot: SnapshotInfo, reason: String)] = []
        var uncovered: SnapshotInfo?
        for info in try store.stored(shard: shard) {
            // The newest snapshot is always read; an older one only helps if the log holds every entry after it.
            guard damaged.isEmpty || info.lsn >= logCut else {
                uncovered = info
                break
            }
            do {
                let snapshot = try store.read(info, shard: shard)
                let payload = try await ShardSnapshotPayload.decode(
                    snapshot.data, shard: shard, spineDepth: router.shardDepth)
                try Self.quarantine(damaged.map(\.snapshot), shard: shard, in: store, fallback: info.path, log: logger)
                return StoredShardSnapshot(metadata: snapshot.metadata, payload: payload)
            } catch let error as StorageError where error.code == .damagedSnapshot {
                damaged.append((info, error.message))
            } catch let error as CommitRecordError {
                damaged.append((info, "Snapshot \(info.path) cannot be decoded: \(error.detail)."))
            }
            let reason = damaged.last?.reason ?? ""
            logger.warning(
                "snapshot.damaged", ["shard": "\(shard)", "path": info.path, "index": "\(info.lsn)", "reason": reason])
        }
        guard !damaged.isEmpty else { return nil }
        guard uncovered == nil, logCut == 0 else {
            let older =
                uncovered.map { "the older snapshot \($0.path) needs every entry after \($0.lsn)" }
                ?? "no older snapshot is left, and starting without one needs every entry from the first"
            throw StorageError(
                .damagedSnapshot,
                damaged.map(\.reason).joined(separator: " ") + " No snapshot of shard \(shard) can replace it: "
                    + "\(older), but this member's log of the shard starts after entry \(logCut). The other "
                    + "replicas hold every committed entry: remove this member from the cluster (hearth cluster remove), "
                    + "empty its data directory and join it again (hearth serve --join), and the shards' leaders send "
                    + "it their snapshots (docs/operations.md, \"Add and remove members\"); or restore the data "
                    + "directory from a backup. The damaged files are left in place for inspection.",
                path: damaged[0].snapshot.path)
        }
        try Self.quarantine(
            damaged.map(\.snapshot), shard: shard, in: store, fallback: "the whole log", log: logger)
        return nil
    }

    /// Renames each damaged snapshot to `<name>.broken` and says what recovery starts from instead.
    private static func quarantine(
        _ damaged: [SnapshotInfo], shard: Int, in store: ShardSnapshotStore, fallback: String, log logger: Log
    ) throws {
        for info in damaged {
            let broken = try store.quarantine(info, shard: shard)
            logger.warning(
                "snapshot.quarantined",
                ["shard": "\(shard)", "path": info.path, "renamed_to": broken, "recovering_from": fallback])
        }
    }
}
