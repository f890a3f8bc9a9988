import Foundation
public import HearthCluster
import HearthCore
import HearthStorage

/// `hearth restore --config cluster.json`: the data directories of a fresh cluster's members, every member starting
/// from the same snapshot at the same place, as etcd's `etcdutl snapshot restore` does.
///
/// Each shard's group starts from a snapshot at Raft index 1 of term 1 whose membership is the one a fresh cluster
/// founds the group with (`MemberList.targets`): the shard's part of the backup (`ShardSnapshotPayload`, in the
/// member's `ShardSnapshotStore`), and in the member's write-ahead log the group's snapshot marker and a hard state
/// of term 1 committed through it — what a member that installed that snapshot from a leader would hold. The
/// member list's group is left to found itself from the configuration, as in a fresh cluster. Every member's
/// directory is built from the same backup and configuration alone, so members restored separately (one per machine)
/// agree, and they elect leaders and take writes as one cluster with the data.
extension BackupRestore {
    /// Makes each of `directories` (absent or empty) the data directory of the member of `cluster` it is paired with,
    /// holding the backup at `path`. Nothing is written unless the whole file checks out and every directory is
    /// empty.
    /// - Returns: the backup's header.
    /// - Throws: `BackupFileError` for a damaged file, `RestoreTargetError` for a directory that is not empty or a
    ///   member the configuration does not name; `StorageError` when a file cannot be written.
    @discardableResult
    public static func restoreCluster(
        from path: String, cluster: ClusterConfiguration, directories: [(member: NodeID, directory: String)]
    ) async throws -> BackupHeader {
        for (member, directory) in directories {
            guard cluster.node(member) != nil else {
                throw RestoreTargetError(
                    "\(member.name) is not a member of \(cluster.name); its members are "
                        + cluster.nodeIDs.map(\.name).joined(separator: ", "))
            }
            try Self.requireEmpty(directory)
        }
        let checked = try Self.check(file: path)
        let roots = try await Self.roots(path, checked)
        let router = ShardRouter(shardCount: cluster.shards, shardDepth: cluster.shardDepth)
        let groups = MemberList(founding: cluster).targets(shardCount: cluster.shards)
        var snapshots: [RaftSnapshot] = []
        for shard in 0..<router.shardCount {
            let others = (0..<router.shardCount).filter { $0 != shard }
            let capture = ShardCapture(
                shard: shard, index: 0, roots: roots,
                cut: Dictionary(uniqueKeysWithValues: others.map { ($0, UInt64(0)) }), intents: [:], decisions: [:],
                sessions: WriteSessions())
            let payload = ShardSnapshotPayload(snapshot: capture.snapshot(router: router), terms: CommittedTerms())
            let membership = groups[RaftGroupID(UInt32(shard))] ?? RaftMembership(voters: cluster.nodeIDs)
            snapshots.append(
                RaftSnapshot(
                    metadata: RaftSnapshotMetadata(index: Self.raftIndex, term: Self.raftIndex, membership: membership),
                    data: payload.encoded()))
        }
        for (_, directory) in directories {
            try await Self.writeMember(snapshots, into: directory)
        }
        return checked.header
    }

    /// The Raft index (and term) every restored shard's group starts from.
    static let raftIndex: UInt64 = 1

    /// Writes one member's directory: each shard's snapshot, then the log records that start its group there.
    private static func writeMember(_ snapshots: [RaftSnapshot], into directory: String) async throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let store = try ShardSnapshotStore(directory: directory, shardCount: snapshots.count)
        for (shard, snapshot) in snapshots.enumerated() {
            try store.write(snapshot, shard: shard)
        }
        var configuration = WALConfiguration()
        configuration.fsync = .always
        let wal = try WriteAheadLog(directory: directory, configuration: configuration, fileSystem: PosixFileSystem()) {
            _ in
        }
        wal.start()
        var last: UInt64 = 0
        for (shard, snapshot) in snapshots.enumerated() {
            let group = RaftGroupID(UInt32(shard))
            var hardState: [UInt8] = []
            RaftHardState(term: Self.raftIndex, commit: Self.raftIndex).encode(to: &hardState)
            for record in [
                RaftGroupStorage.snapshotRecord(snapshot.metadata, group: group),
                .hardState(group: shard, bytes: hardState),
            ] {
                last = wal.enqueue(record.encoded())
            }
        }
        try await wal.waitUntilDurable(last)
        await wal.close()
    }

    /// The backup's trees, decoded whole (each shard's snapshot is cut from them).
    private static func roots(_ path: String, _ checked: Checked) async throws -> [String: Node] {
        var decoder = SnapshotDecoder(parallelism: ProcessInfo.processInfo.activeProcessorCount)
        try await decoder.feed(Array((SnapshotContent.header + "\n").utf8))
        var reader = try checked.trees(of: path)
        while let bytes = try reader.next() { try await decoder.feed(bytes) }
        return try await decoder.finish().roots
    }
}
