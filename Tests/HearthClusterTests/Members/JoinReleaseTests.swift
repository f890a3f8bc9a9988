import HearthCluster
import HearthNet
import HearthSystem
import Testing

/// Which releases may be members: a grouped cluster refuses a joining node of a release before groups, naming both
/// and the fix, before the member list takes it, and its members' handshakes refuse such a peer; a cluster of one
/// group per shard takes any release the peer rule allows.
@Suite struct JoinReleaseTests {
    static let nodes = [ClusterConfiguration.Node(id: "n1", host: "127.0.0.1", httpPort: 9001, peerPort: 9101)]
    static let older = HearthRelease(major: 0, minor: 2, patch: 0)

    /// A node of 0.2.0 asking to join a cluster that sets groups is refused with a reason that names the node, its
    /// release, the layout and the release it needs.
    @Test func aGroupedClusterRefusesAReleaseBeforeGroups() throws {
        let grouped = try ClusterConfiguration(
            name: "c", nodes: Self.nodes, shards: 16, groups: 1, replicationFactor: 1)
        let refusal = try #require(JoinRelease.refusal(of: "n4", at: Self.older, into: grouped))
        #expect(refusal.contains("n4 runs hearth 0.2.0"))
        #expect(refusal.contains("16 shards over 1 Raft group "))
        #expect(refusal.contains("needs hearth 0.3.0 or later"))
        #expect(JoinRelease.refusal(of: "n4", at: JoinRelease.firstWithGroups, into: grouped) == nil)
        #expect(JoinRelease.refusal(of: "n4", at: HearthVersion.current, into: grouped) == nil)
    }

    /// A cluster with one group per shard (no groups key) takes a node of any release.
    @Test func aClusterWithoutGroupsTakesOlderReleases() throws {
        let plain = try ClusterConfiguration(name: "c", nodes: Self.nodes, shards: 16, replicationFactor: 1)
        #expect(JoinRelease.refusal(of: "n4", at: Self.older, into: plain) == nil)
        #expect(JoinRelease.refusal(of: "n4", at: ReleaseRule.untagged, into: plain) == nil)
    }

    /// A member of a grouped cluster holds its peers to 0.3.0 in the handshake, whatever lower floor it was started
    /// with, so a member rolled back to 0.2.0 is refused; one of a cluster without groups keeps its floor.
    @Test func aGroupedClustersMembersRefuseOlderPeers() throws {
        let grouped = try ClusterConfiguration(
            name: "c", nodes: Self.nodes, shards: 16, groups: 1, replicationFactor: 1)
        let plain = try ClusterConfiguration(name: "c", nodes: Self.nodes, shards: 16, replicationFactor: 1)
        let started = PeerReleaseTag(release: HearthVersion.current, minimumPeer: Self.older)
        #expect(JoinRelease.tag(started, for: grouped).minimumPeer == JoinRelease.firstWithGroups)
        #expect(JoinRelease.tag(started, for: grouped).release == HearthVersion.current)
        #expect(JoinRelease.tag(started, for: plain) == started)
        let verdict = ReleaseRule.verdict(
            local: HearthVersion.current, localMinimum: JoinRelease.tag(started, for: grouped).minimumPeer,
            peer: Self.older, peerMinimum: ReleaseRule.oldestPeer(of: Self.older))
        #expect(verdict == .peerTooOld(needs: JoinRelease.firstWithGroups))
    }
}
