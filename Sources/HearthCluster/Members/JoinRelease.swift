public import HearthSystem

/// Which releases may join a cluster, decided before the member list takes the node: a joining node that could
/// not run the cluster's layout would otherwise be listed as a member, fail to start, and stay listed (down) until
/// an operator removes it.
public enum JoinRelease {
    /// The first release that runs shards spread over fewer Raft groups (the configuration's `groups`); older ones
    /// cannot read the layout (they refuse the configuration key, and the join reply that carries it).
    public static let firstWithGroups = HearthRelease(major: 0, minor: 3, patch: 0)

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
