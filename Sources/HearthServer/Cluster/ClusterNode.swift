import Foundation
import HearthCluster
import HearthCore
import HearthNet
import HearthStorage
import HearthSystem
import Synchronization

/// One member of a cluster, as `hearth serve --config F --node n` runs it: the peer transport to the other members,
/// SWIM membership over it, and the replicated database (a Raft group per shard) under the same front ends a single
/// node has.
final class ClusterNode: NodeBackend {
    let cluster: ClusterConfiguration
    let node: NodeID
    let transport: PeerTransport
    let membership: MembershipShell
    let database: ReplicatedDatabase
    let placement: ShardPlacement

    private init(
        cluster: ClusterConfiguration, node: NodeID, transport: PeerTransport, membership: MembershipShell,
        database: ReplicatedDatabase, placement: ShardPlacement
    ) {
        self.cluster = cluster
        self.node = node
        self.transport = transport
        self.membership = membership
        self.database = database
        self.placement = placement
    }

    /// Listens for peers, recovers the node's log in `directory`, and connects to the other members.
    /// - Throws: `ClusterNodeError` when `node` is not a member of `cluster`; `IOError` when the peer port cannot be
    ///   bound; storage and recovery errors from the log.
    static func open(
        cluster: ClusterConfiguration, node: NodeID, directory: String, fsync: FsyncMode, log: Log
    ) async throws -> ClusterNode {
        guard let member = cluster.node(node) else {
            throw ClusterNodeError(
                "\(node.name) is not a node of cluster \(cluster.name); its nodes are "
                    + cluster.nodeIDs.map(\.name).joined(separator: ", ") + ". Pass one of them with --node.")
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let inbox = PeerInbox()
        let transport = try PeerTransport(
            configuration: PeerTransport.Configuration(
                node: node, cluster: cluster.name,
                listenAddress: try SocketAddress(host: member.host, port: member.peerPort)),
            log: log
        ) { peer, kind, payload in inbox.deliver(kind: kind, payload, from: peer) }
        do {
            for other in cluster.nodes where other.id != node {
                transport.addPeer(other.id, at: try SocketAddress(host: other.host, port: other.peerPort))
            }
            let placement = ShardPlacement(
                members: cluster.nodeIDs, shardCount: cluster.shards, replicationFactor: cluster.replicationFactor)
            let members = MemberList(founding: cluster)
            let database = try await ReplicatedDatabase.open(
                directory: directory, node: node,
                router: ShardRouter(shardCount: cluster.shards, shardDepth: cluster.shardDepth),
                founding: members.targets(shardCount: cluster.shards), members: members,
                raft: try RaftConfiguration(electionTicks: 10),
                tickInterval: .milliseconds(100), fsync: fsync,
                send: { peer, kind, bytes in transport.send(bytes, kind: kind, to: peer) }, logger: log)
            let membership = MembershipShell(
                instance: try SWIMInstance(
                    myself: SWIMMember(
                        id: node,
                        address: SWIMAddress(
                            host: member.host, peerPort: UInt16(member.peerPort), httpPort: UInt16(member.httpPort)),
                        generation: UInt64(Date().timeIntervalSince1970 * 1000)),
                    random: SystemRandomNumberGenerator()),
                log: log,
                send: { peer, bytes in _ = transport.send(bytes, kind: .membership, to: peer) },
                resolve: { address in
                    cluster.nodes.first { $0.host == address.host && $0.peerPort == Int(address.peerPort) }?.id
                })
            inbox.attach(database: database, membership: membership)
            log.info(
                "cluster.joined",
                ["cluster": cluster.name, "node": node.name, "peer_port": "\(transport.port)", "data": directory])
            return ClusterNode(
                cluster: cluster, node: node, transport: transport, membership: membership, database: database,
                placement: placement)
        } catch {
            await transport.shutdown()
            throw error
        }
    }

    var view: DatabaseView { self.database.view }
    var coordinator: Coordinator { self.database.coordinator }
    var clock: ServerClock { self.database.clock }
    var hasFailed: Bool { self.database.hasFailed }
    var notReadyReason: String? { self.database.notReadyReason }
    var walStatistics: WALStatistics { self.database.wal.statistics }

    func runServices(log: Log) async {
        self.membership.start(knownPeers: self.cluster.nodeIDs.filter { $0 != self.node })
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await self.membership.run()
                return false
            }
            group.addTask {
                do {
                    try await self.database.run()
                    return false
                } catch {
                    log.critical(
                        "wal.failed",
                        ["error": "\(error)", "action": "stopping the node; nothing further can be made durable"])
                    return true
                }
            }
            group.addTask {
                await self.balanceLeaders(log: log)
                return false
            }
            while let mustStop = await group.next() {
                if mustStop { group.cancelAll() }
            }
        }
    }

    /// Every few seconds, hands shards this node leads to their preferred leaders when those are alive, connected
    /// and caught up (see `ReplicatedDatabase.balanceLeaders`).
    private func balanceLeaders(log: Log) async {
        while (try? await Task.sleep(for: .seconds(3))) != nil {
            let alive = Set(self.membership.members.filter { $0.status == .alive }.map(\.id))
            let links = self.transport.statistics
            let moved = self.database.balanceLeaders(preferred: self.placement.preferredLeaders) { peer in
                alive.contains(peer) && links[peer]?.isConnected == true
            }
            if !moved.isEmpty {
                log.info("cluster.leadership_handed_over", ["shards": moved.map(String.init).joined(separator: ",")])
            }
        }
    }

    func close(log: Log) async {
        await self.database.close()
        await self.transport.shutdown()
        log.info("node.stopped", ["wal_fsyncs": "\(self.walStatistics.fsyncs)"])
    }
}

/// A cluster node cannot start as asked; the message says what to change.
public struct ClusterNodeError: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// Where the peer transport's frames go: it is created before the database and membership that handle them, so
/// frames that arrive before those exist are dropped (Raft and SWIM treat that as loss).
private final class PeerInbox: Sendable {
    private let handlers = Mutex<(ReplicatedDatabase, MembershipShell)?>(nil)

    func attach(database: ReplicatedDatabase, membership: MembershipShell) {
        self.handlers.withLock { $0 = (database, membership) }
    }

    func deliver(kind: UInt8, _ payload: [UInt8], from peer: NodeID) {
        guard let kind = PeerFrameKind(rawValue: kind), let (database, membership) = self.handlers.withLock({ $0 })
        else { return }
        if kind == .membership {
            membership.receive(payload, from: peer)
        } else {
            database.receive(kind: kind, payload, from: peer)
        }
    }
}
