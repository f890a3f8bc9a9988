import Foundation
import HearthStorage
import HearthSystem

extension Database {
    /// The snapshot recovery starts from: its decoded content and the log position it covers.
    struct SnapshotStart {
        let content: SnapshotContent.Decoded
        let lsn: UInt64
    }

    /// Decodes the newest snapshot; when it is damaged (truncated, failing its checksum, or not decodable), logs a
    /// warning naming it and falls back to the next older one the log still covers (every record after it is in
    /// the log), or to the empty database when the log reaches back to its first record. Damaged snapshots are
    /// renamed to `<name>.broken` once a fallback is found, never deleted. Nil when there is no snapshot at all. A
    /// damaged snapshot at LSN 0 (one `hearth restore` made) is never replaced by the log, which holds none of it.
    ///
    /// - Throws: `StorageError` `.damagedSnapshot` naming every damaged file and the log's first record when no
    ///   snapshot the log covers is usable (the operator restores from a backup); I/O errors as they happen.
    static func loadSnapshot(
        from snapshots: SnapshotStore, logDirectory: String, logStartsAt firstSequence: UInt64, log logger: Log
    ) async throws -> SnapshotStart? {
        var damaged: [(snapshot: SnapshotInfo, reason: String)] = []
        var uncovered: SnapshotInfo?
        for snapshot in try snapshots.all() {
            // The newest snapshot is always read; an older one only helps if the log holds every record after it.
            guard damaged.isEmpty || firstSequence <= snapshot.lsn + 1 else {
                uncovered = snapshot
                break
            }
            do {
                let content = try await Self.decode(snapshot, from: snapshots)
                try Self.quarantine(damaged.map(\.snapshot), in: snapshots, fallback: snapshot.path, log: logger)
                return SnapshotStart(content: content, lsn: snapshot.lsn)
            } catch let error as StorageError where error.code == .damagedSnapshot {
                damaged.append((snapshot, error.message))
            } catch let error as CommitRecordError {
                damaged.append((snapshot, "Snapshot \(snapshot.path) cannot be decoded: \(error.detail)."))
            }
            let reason = damaged.last?.reason ?? ""
            logger.warning("snapshot.damaged", ["path": snapshot.path, "lsn": "\(snapshot.lsn)", "reason": reason])
        }
        guard !damaged.isEmpty else { return nil }
        // A snapshot at LSN 0 covers no log record: `hearth restore` made it, and only it holds the data.
        if let restored = damaged.first(where: { $0.snapshot.lsn == 0 }) {
            throw StorageError(
                .damagedSnapshot,
                damaged.map(\.reason).joined(separator: " ") + " \(restored.snapshot.path) is the snapshot "
                    + "`hearth restore` made, and no log record holds its data, so nothing can replace it. Restore the "
                    + "data directory from the backup again; the damaged files are left in place for inspection.",
                path: restored.snapshot.path)
        }
        guard uncovered == nil, firstSequence <= 1 else {
            let older =
                uncovered.map { "the older snapshot \($0.path) needs every log record after LSN \($0.lsn)" }
                ?? "no older snapshot is left, and starting empty needs every log record from LSN 1"
            throw StorageError(
                .damagedSnapshot,
                damaged.map(\.reason).joined(separator: " ") + " No snapshot can replace it: \(older), but the "
                    + "write-ahead log in \(logDirectory) starts at LSN \(firstSequence). Restore the data directory "
                    + "from a backup; the damaged files are left in place for inspection.",
                path: damaged[0].snapshot.path)
        }
        try Self.quarantine(damaged.map(\.snapshot), in: snapshots, fallback: "the whole log", log: logger)
        return nil
    }

    /// Reads and decodes one snapshot chunk by chunk: a gigabyte snapshot is never held whole beside the trees
    /// decoded from it.
    private static func decode(_ snapshot: SnapshotInfo, from snapshots: SnapshotStore) async throws
        -> SnapshotContent.Decoded
    {
        var reader = try snapshots.reader(snapshot)
        var decoder = SnapshotDecoder(parallelism: ProcessInfo.processInfo.activeProcessorCount)
        while try await decoder.feed(from: { try reader.next(maximum: Self.snapshotChunkSize, appendingTo: &$0) }) {
        }
        try reader.finish()
        return try await decoder.finish()
    }

    /// Renames each damaged snapshot to `<name>.broken` and says what recovery starts from instead.
    private static func quarantine(
        _ damaged: [SnapshotInfo], in snapshots: SnapshotStore, fallback: String, log logger: Log
    ) throws {
        for snapshot in damaged {
            let broken = try snapshots.quarantine(snapshot)
            logger.warning(
                "snapshot.quarantined", ["path": snapshot.path, "renamed_to": broken, "recovering_from": fallback])
        }
    }
}
