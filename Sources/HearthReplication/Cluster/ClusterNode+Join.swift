import Dispatch
import Foundation
package import HearthCluster
package import HearthNet
package import HearthNode
package import HearthStorage
package import HearthSystem

/// `hearth serve --join host:peerPort`: a node not in the configuration file asks a member to add it, keeps what
/// it needs to restart (`JoinedMember`), and starts with every group empty until each group's leader adds it. On
/// the member's side, join requests are answered by the member list's leader (others point to it).
extension ClusterNode {
    /// How long a node keeps asking to join (following redirects, waiting out elections) before it gives up.
    static let joinPatience: Duration = .seconds(60)

    /// Joins the cluster of the member at `seed` as `member`, proving `secret`, keeping its state in `directory` on
    /// `fileSystem`;
    /// restarts instead when `directory` already holds this node's state from an earlier join. `remembered` is what
    /// the node keeps of where its secrets are (`JoinedMember.secretFile`, `databaseSecretFile`).
    /// - Throws: `ClusterNodeError` when the directory holds another node's data, or the cluster refuses the node
    ///   (the message says why), or no member answered within `joinPatience`.
    package static func join(
        seed: SocketAddress, member: ClusterConfiguration.Node, secret: PeerClusterSecret,
        release: PeerReleaseTag = .current, remembered: JoinedMember.SecretFiles, directory: String,
        fileSystem: any FileSystem, fsync: FsyncMode, catchUpHold: Duration, log: Log
    ) async throws -> ClusterNode {
        if let joined = try JoinedMember.load(directory: directory, fileSystem: fileSystem) {
            guard joined.node == member else {
                throw ClusterNodeError(
                    "\(directory) holds the state of \(joined.node.id), which joined at \(joined.node.host) (HTTP "
                        + "\(joined.node.httpPort), peer \(joined.node.peerPort)); restart it with hearth serve --data "
                        + "\(directory), or use another data directory for \(member.id).")
            }
            log.info("cluster.rejoining", ["node": member.id.name, "reason": "already joined; restarting from data"])
            return try await Self.open(
                joined: joined, secret: secret, release: release, directory: directory, fileSystem: fileSystem,
                fsync: fsync, catchUpHold: catchUpHold, log: log)
        }
        let existing = try fileSystem.kind(of: directory) == nil ? [] : try fileSystem.contents(ofDirectory: directory)
        guard existing.allSatisfy({ $0.hasPrefix(".") }) else {
            throw ClusterNodeError(
                "\(directory) is not empty but holds no record of a join; a node joins with an empty data directory. "
                    + "Pick another --data, or empty this one.")
        }
        let request = JoinRequest(node: member)
        log.info("cluster.joining", ["node": member.id.name, "through": "\(seed)"])
        let (founding, members) = try await Self.ask(seed, request, secret: secret, release: release, log: log)
        try fileSystem.createDirectories(directory)
        let joined = JoinedMember(
            node: member, founding: founding, members: members.members.map(\.node), secretFiles: remembered)
        try joined.save(directory: directory, fileSystem: fileSystem)
        log.info("cluster.joined", ["cluster": founding.name, "node": member.id.name])
        return try await Self.open(
            joined: joined, secret: secret, release: release, directory: directory, fileSystem: fileSystem,
            fsync: fsync, catchUpHold: catchUpHold, log: log)
    }

    /// Asks until a member accepts, following redirects to the member list's leader, on a thread of its own (the
    /// exchange blocks).
    private static func ask(
        _ seed: SocketAddress, _ request: JoinRequest, secret: PeerClusterSecret, release: PeerReleaseTag, log: Log
    ) async throws -> (ClusterConfiguration, MemberList) {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    with: Result {
                        try Self.askBlocking(seed, request, secret: secret, release: release, log: log)
                    })
            }
        }
    }

    private static func askBlocking(
        _ seed: SocketAddress, _ request: JoinRequest, secret: PeerClusterSecret, release: PeerReleaseTag, log: Log
    ) throws -> (ClusterConfiguration, MemberList) {
        let deadline = ContinuousClock.now + Self.joinPatience
        var address = seed
        var lastProblem = "no answer yet"
        while ContinuousClock.now < deadline {
            do {
                switch try PeerJoinClient.ask(
                    address, request, secret: secret, release: release, timeout: .seconds(35))
                {
                case .accepted(let founding, let members):
                    return (founding, members)
                case .redirect(let host, let peerPort):
                    log.info("cluster.join_redirected", ["to": "\(host):\(peerPort)"])
                    address = try SocketAddress(host: host, port: peerPort)
                    continue
                case .retry(let reason):
                    lastProblem = reason
                case .refused(let reason):
                    throw ClusterNodeError("The cluster refused to let \(request.node.id) join: \(reason)")
                }
            } catch let error as PeerJoinError {
                log.warning("cluster.join_attempt_failed", ["through": "\(address)", "reason": error.message])
                lastProblem = error.message
                address = seed
            }
            Thread.sleep(forTimeInterval: 0.5)
        }
        throw ClusterNodeError(
            "\(request.node.id) could not join through \(seed) within \(Self.joinPatience.components.seconds) s: "
                + "\(lastProblem). Check that --join names a member's peer address and that the cluster is healthy.")
    }

    /// Answers the join requests other nodes send to this node's peer port, one at a time, until the node stops.
    func answerJoins() async {
        for await (request, release, reply) in self.joinRequests {
            reply(await self.answerJoin(request, from: release).encoded())
        }
    }

    /// The answer to one join request from a node of `release`: taken (the member list committed the node, or
    /// already had it), pointed to the member list's leader, or refused with the reason — before the member list
    /// takes a node whose release cannot run this cluster's layout (`JoinRelease`).
    func answerJoin(_ bytes: [UInt8], from release: HearthRelease) async -> JoinReply {
        guard let request = try? JoinRequest(decoding: bytes) else {
            return .refused("The join request cannot be read; run the same Hearth release on every node.")
        }
        if let refusal = JoinRelease.refusal(of: request.node.id, at: release, into: self.cluster) {
            return .refused(refusal)
        }
        let asked = request.node
        let list = self.members
        if let existing = list.member(asked.id), existing.node == asked, existing.status == .active {
            // Asked again: the first answer was lost before the node kept it, so the node never ran and holds no
            // vote anywhere. One that does vote lost its data; rejoining with an empty log would break Raft.
            let votes = self.database.service.groups.contains {
                self.database.service.host($0)?.committedMembership.isVoter(asked.id) == true
            }
            guard !votes else {
                return .refused(
                    "\(asked.id) is already a member holding replicas, and a joining node starts empty; if its data "
                        + "was lost, remove it (hearth cluster remove \(asked.id)) and join it again.")
            }
            return .accepted(founding: self.cluster, members: list)
        }
        do {
            switch try await self.database.proposeMemberChange(.add(asked)) {
            case .changed, .unchanged:
                self.log.info(
                    "cluster.member_added", ["member": asked.id.name, "peer": "\(asked.host):\(asked.peerPort)"])
                return .accepted(founding: self.cluster, members: self.members)
            case .refused(let reason):
                return .refused(reason)
            }
        } catch .notLeader(let leader?) {
            guard let address = self.members.member(leader)?.node else {
                return .retry("The member list's leader \(leader) is not in this node's list yet; ask again.")
            }
            return .redirect(host: address.host, peerPort: address.peerPort)
        } catch {
            return .retry(error.description)
        }
    }
}
