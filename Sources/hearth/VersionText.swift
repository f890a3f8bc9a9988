import HearthCluster
import HearthNet
import HearthSystem

/// What `hearth --version` prints: the release, the oldest release it runs beside in one cluster (`ReleaseRule`),
/// and the versions of what peers exchange (the peer protocol a hello carries, and the format byte of every
/// replicated log record).
enum VersionText {
    static let text = """
        hearth \(HearthVersion.release)
        runs beside hearth \(ReleaseRule.oldestPeer(of: HearthVersion.current)) and later (docs/operations.md, Upgrades)
        peer protocol \(PeerHello.currentVersion), Raft log record format \(RaftLogRecord.formatVersion)
        """
}
