package import HearthNet
public import HearthSystem

/// Which releases may be members of a cluster whose layout needs a newer one: a joining node is refused before the
/// member list takes it (else it would be listed, fail to start, and stay listed down until an operator removes
/// it), and a member's links refuse a peer of an older release in the handshake (a member rolled back to a release
/// that cannot read the layout would apply the groups' entries as if each group were one shard).
public enum JoinRelease {
    /// The first release that runs shards spread over fewer Raft groups (the configuration's `groups`); older ones
    /// cannot read the layout (they refuse the configuration key, and the join reply that carries it).
    public static let firstWithGroups = HearthRelease(major: 0, minor: 3, patch: 0)

    /// The release `tag` a member of `cluster` sends and holds its peers to: for a grouped cluster, peers from
    /// `firstWithGroups` on, whatever older floor the tag had.
    package static func tag(_ tag: PeerReleaseTag, for cluster: ClusterConfiguration) -> PeerReleaseTag {
        guard cluster.groups != nil, tag.minimumPeer < Self.firstWithGroups else { return tag }
        return PeerReleaseTag(release: tag.release, minimumPeer: Self.firstWithGroups)
    }

    /// Why `node`, running `release`, may not join the cluster `cluster` describes, or `nil` when it may.
    public static func refusal(of node: NodeID, at release: HearthRelease, into cluster: ClusterConfiguration)
        -> String?
    {
        guard let groups = cluster.groups, release < Self.firstWithGroups else { return nil }
        return "\(node) runs hearth \(release), and this cluster spreads its \(cluster.shards) shards over "
            + "\(groups) Raft group\(groups == 1 ? "" : "s") (the configuration's groups), which needs hearth "
            + "\(Self.firstWithGroups) or later on every member: upgrade \(node) and join it again."
    }
}
