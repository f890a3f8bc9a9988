import Foundation
public import HearthCluster
import HearthCore
public import HearthDatabase
import HearthReplication
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
        let fileSystem = PosixFileSystem()
        for (member, directory) in directories {
            guard cluster.node(member) != nil else {
                throw RestoreTargetError(
                    "\(member.name) is not a member of \(cluster.name); its members are "
                        + cluster.nodeIDs.map(\.name).joined(separator: ", "))
            }
            try Self.requireEmpty(directory, on: fileSystem)
        }
        let checked = try Self.check(file: path)
        let roots = try await Self.roots(path, checked)
        let router = cluster.router
        let groups = MemberList(founding: cluster).targets(shardCount: cluster.groupCount)
        var stores: [ShardSnapshotStore] = []
        for (_, directory) in directories {
            try fileSystem.createDirectories(directory)
            stores.append(
                try ShardSnapshotStore(directory: directory, shardCount: router.shardCount, fileSystem: fileSystem))
        }
        // One shard's snapshot at a time, into every member's store: a restore holds the trees and one payload.
        var markers: [RaftSnapshotMetadata] = []
        for shard in 0..<router.shardCount {
            let others = (0..<router.shardCount).filter { $0 != shard }
            let capture = ShardCapture(
                shard: shard, index: 0, roots: roots,
                cut: Dictionary(uniqueKeysWithValues: others.map { ($0, UInt64(0)) }), intents: [:], decisions: [:],
                sessions: WriteSessions())
            let payload = ShardSnapshotPayload(snapshot: capture.snapshot(router: router), terms: CommittedTerms())
            let membership = groups[RaftGroupID(UInt32(shard))] ?? RaftMembership(voters: cluster.nodeIDs)
            let metadata = RaftSnapshotMetadata(index: Self.raftIndex, term: Self.raftIndex, membership: membership)
            let snapshot = RaftSnapshot(metadata: metadata, data: payload.encoded())
            for store in stores { try store.write(snapshot, shard: shard) }
            markers.append(metadata)
        }
        for (_, directory) in directories {
            try ClusterLayout(router: router).check(directory: directory, holdsData: false, fileSystem: fileSystem)
            try await Self.startGroups(markers, inLogAt: directory, fileSystem: fileSystem)
        }
        return checked.header
    }

    /// The Raft index (and term) every restored shard's group starts from.
    static let raftIndex: UInt64 = 1

    /// Writes a member's log: for each shard's group, the marker of its stored snapshot and a hard state of the
    /// snapshot's term committed through it.
    private static func startGroups(
        _ markers: [RaftSnapshotMetadata], inLogAt directory: String, fileSystem: any FileSystem
    ) async throws {
        var configuration = WALConfiguration()
        configuration.fsync = .always
        let wal = try WriteAheadLog(directory: directory, configuration: configuration, fileSystem: fileSystem) { _ in }
        wal.start()
        var last: UInt64 = 0
        for (shard, metadata) in markers.enumerated() {
            var hardState: [UInt8] = []
            RaftHardState(term: metadata.term, commit: metadata.index).encode(to: &hardState)
            for record in [
                RaftGroupStorage.snapshotRecord(metadata, group: RaftGroupID(UInt32(shard))),
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
