import HearthCluster
import HearthNet
import HearthSystem

/// What `hearth --version` prints: the release, and the versions that decide which builds may run together in
/// one cluster (the peer protocol a hello carries, and the format byte of every replicated log record).
enum VersionText {
    static let text = """
        hearth \(HearthVersion.release)
        peer protocol \(PeerHello.currentVersion), Raft log record format \(RaftLogRecord.formatVersion)
        """
}
