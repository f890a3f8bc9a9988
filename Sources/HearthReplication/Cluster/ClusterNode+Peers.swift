import HearthCluster
import HearthNet
import HearthSystem

/// Keeping the peer transport and SWIM in step with the member list: a member that joins becomes a peer at once;
/// a removed one is dropped once no group this node hosts counts it any more (until then a group's leader may still
/// need to tell it it was removed).
extension ClusterNode {
    /// The member list changed (this node's replica applied a change): every member becomes a peer and is probed.
    func membersChanged(_ list: MemberList) {
        let known = Set(self.transport.peers)
        var added: [NodeID] = []
        for member in list.members where member.id != self.node && !known.contains(member.id) {
            guard let address = try? SocketAddress(host: member.node.host, port: member.node.peerPort) else {
                continue
            }
            self.transport.addPeer(member.id, at: address)
            added.append(member.id)
        }
        if !added.isEmpty {
            self.membership.start(knownPeers: added)
            self.log.info("cluster.members_added", ["members": added.map(\.name).joined(separator: ",")])
        }
        if list.removed[self.node] != nil {
            self.log.warning(
                "cluster.removed",
                [
                    "node": self.node.name,
                    "action": "this node was removed from the cluster and serves nothing; stop it",
                ])
        }
    }

    /// Every second, drops the peers the member list removed that no group hosted here counts any more.
    func tendPeers() async {
        while (try? await Task.sleep(for: .seconds(1))) != nil {
            let list = self.members
            let service = self.database.service
            for peer in self.transport.peers where list.removed[peer] != nil {
                let counted = service.groups.contains { service.host($0)?.membership.isMember(peer) ?? false }
                guard !counted else { continue }
                self.transport.removePeer(peer)
                self.log.info("cluster.peer_dropped", ["peer": peer.name, "reason": "removed from the cluster"])
            }
        }
    }
}
