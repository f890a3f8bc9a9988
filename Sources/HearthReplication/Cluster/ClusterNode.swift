import Foundation
package import HearthCluster
import HearthCore
import HearthDatabase
package import HearthNet
package import HearthNode
package import HearthStorage
package import HearthSystem

/// One member of a cluster, as `hearth serve` runs it: the peer transport to the other members, SWIM membership
/// over it, and the replicated database (a Raft group per shard, and one for the member list) under the same front
/// ends a single node has.
///
/// A founding member starts from the cluster's configuration file (`open(cluster:node:…)`); a node added later
/// joins through a member (`join(seed:…)`) and restarts from what it kept in its data directory (`JoinedMember`).
/// Either way the members it talks to come from the replicated member list, which changes as nodes join and leave
/// (`ClusterNode+Peers.swift`).
package final class ClusterNode: NodeBackend {
    /// The configuration the cluster was founded with: its name, shards, replication factor and first members.
    let cluster: ClusterConfiguration
    let node: NodeID
    let transport: PeerTransport
    let membership: MembershipShell
    let database: ReplicatedDatabase
    /// Join requests other nodes sent to this one's peer port, waiting for an answer (`answerJoins`).
    let joinRequests: AsyncStream<JoinAsk>
    private let joinInbox: AsyncStream<JoinAsk>.Continuation
    let log: Log
    /// A join request's bytes, the joining node's release (from its hello), and where its answer goes.
    typealias JoinAsk = (request: [UInt8], release: HearthRelease, reply: @Sendable ([UInt8]) -> Void)

    private init(
        cluster: ClusterConfiguration, node: NodeID, transport: PeerTransport, membership: MembershipShell,
        database: ReplicatedDatabase, log: Log
    ) {
        self.cluster = cluster
        self.node = node
        self.transport = transport
        self.membership = membership
        self.database = database
        self.log = log
        (self.joinRequests, self.joinInbox) = AsyncStream.makeStream()
    }

    /// The member list as this node's replica has applied it.
    var members: MemberList { self.database.directory.list }

    var sharedConditionalWriteTurns: (any ConditionalWriteTurns)? { self.database.conditionalWriteTurns }

    /// The placement over the active members.
    var placement: ShardPlacement { self.members.placement(shardCount: self.cluster.groupCount) }

    /// A founding member: listens for peers, recovers the node's log in `directory` on `fileSystem`, and connects to
    /// the members; it holds its clients' requests until it has caught up, at most `catchUpHold` (`CatchUpHold`).
    /// - Throws: `ClusterNodeError` when `node` is not a member of `cluster`; `IOError` when the peer port cannot be
    ///   bound; storage and recovery errors from the log.
    package static func open(
        cluster: ClusterConfiguration, node: NodeID, secret: PeerClusterSecret, release: PeerReleaseTag = .current,
        directory: String, fileSystem: any FileSystem, fsync: FsyncMode, catchUpHold: Duration, log: Log
    ) async throws -> ClusterNode {
        guard let member = cluster.node(node) else {
            throw ClusterNodeError(
                "\(node.name) is not a node of cluster \(cluster.name)'s configuration; its nodes are "
                    + cluster.nodeIDs.map(\.name).joined(separator: ", ") + ". Pass one of them with --node; a node "
                    + "that joined later restarts from its data directory (hearth serve --data DIR).")
        }
        let founding = MemberList(founding: cluster)
        return try await Self.start(
            cluster: cluster, member: member, peers: cluster.nodes, secret: secret, release: release,
            groups: founding.targets(shardCount: cluster.groupCount), directory: directory, fileSystem: fileSystem,
            fsync: fsync, catchUpHold: catchUpHold, log: log)
    }

    /// A node that joined earlier, restarting from its data directory on `fileSystem`.
    package static func open(
        joined: JoinedMember, secret: PeerClusterSecret, release: PeerReleaseTag = .current, directory: String,
        fileSystem: any FileSystem, fsync: FsyncMode, catchUpHold: Duration, log: Log
    ) async throws -> ClusterNode {
        try await Self.start(
            cluster: joined.founding, member: joined.node, peers: joined.members, secret: secret, release: release,
            groups: Self.waitingGroups(shards: joined.founding.groupCount), directory: directory,
            fileSystem: fileSystem,
            fsync: fsync, catchUpHold: catchUpHold, log: log)
    }

    /// Every group with no members: a node that joins a running cluster waits for each group's leader to add it.
    static func waitingGroups(shards: Int) -> [RaftGroupID: RaftMembership] {
        var groups: [RaftGroupID: RaftMembership] = [.members: .empty]
        for shard in 0..<shards { groups[RaftGroupID(UInt32(shard))] = .empty }
        return groups
    }

    /// Every group's tick: leaders send heartbeats each tick.
    static let tickInterval = Duration.milliseconds(50)
    /// A follower that hears no leader for 10 to 20 ticks (0.5–1 s) starts an election, so the shards of a node
    /// that dies take writes again about a second later (`scripts/bench-failover.sh`); etcd's defaults are a 100 ms
    /// heartbeat and a 1 s election timeout.
    static let electionTicks = 10

    private static func start(
        cluster: ClusterConfiguration, member: ClusterConfiguration.Node, peers: [ClusterConfiguration.Node],
        secret: PeerClusterSecret, release: PeerReleaseTag, groups: [RaftGroupID: RaftMembership], directory: String,
        fileSystem: any FileSystem, fsync: FsyncMode, catchUpHold: Duration, log: Log
    ) async throws -> ClusterNode {
        let node = member.id
        var environment = NodeEnvironment.system
        environment.fileSystem = fileSystem
        let inbox = PeerInbox()
        // This run's incarnation: SWIM's generation, also sent in every peer hello and covered by its proofs.
        let generation = UInt64(Date().timeIntervalSince1970 * 1000)
        var transportConfiguration = PeerTransport.Configuration(
            node: node, cluster: cluster.name, secret: secret,
            listenAddress: try SocketAddress(host: member.host, port: member.peerPort))
        transportConfiguration.generation = generation
        transportConfiguration.release = JoinRelease.tag(release, for: cluster)
        let transport = try PeerTransport(configuration: transportConfiguration, log: log) { peer, kind, payload in
            inbox.deliver(kind: kind, payload, from: peer)
        }
        do {
            let database = try await ReplicatedDatabase.open(
                directory: directory, node: node,
                router: cluster.router,
                founding: groups, members: MemberList(founding: cluster),
                raft: try RaftConfiguration(electionTicks: Self.electionTicks), tickInterval: Self.tickInterval,
                fsync: fsync, catchUpHold: catchUpHold, environment: environment,
                send: { peer, kind, bytes in transport.send(bytes, kind: kind, to: peer) }, logger: log)
            let known = Self.knownMembers(database.directory.list, peers)
            let membership = MembershipShell(
                instance: try SWIMInstance(
                    myself: SWIMMember(
                        id: node,
                        address: SWIMAddress(
                            host: member.host, peerPort: UInt16(member.peerPort), httpPort: UInt16(member.httpPort)),
                        generation: generation),
                    random: SystemRandomNumberGenerator()),
                log: log,
                send: { peer, bytes in _ = transport.send(bytes, kind: .membership, to: peer) },
                resolve: { address in
                    database.directory.list.members.first {
                        $0.node.host == address.host && $0.node.peerPort == Int(address.peerPort)
                    }?.id
                })
            let clusterNode = ClusterNode(
                cluster: cluster, node: node, transport: transport, membership: membership, database: database,
                log: log)
            for other in known where other.id != node {
                transport.addPeer(other.id, at: try SocketAddress(host: other.host, port: other.peerPort))
            }
            database.directory.onChange { [weak clusterNode] list in clusterNode?.membersChanged(list) }
            transport.setJoinHandler { [weak clusterNode] request, release, reply in
                clusterNode?.joinInbox.yield((request, release, reply))
            }
            transport.setDisconnectHandler { peer in
                database.calls.connectionLost(to: peer)
                database.callServer.turns.peerLost(peer)
            }
            inbox.attach(database: database, membership: membership)
            log.info(
                "cluster.started",
                ["cluster": cluster.name, "node": node.name, "peer_port": "\(transport.port)", "data": directory])
            return clusterNode
        } catch {
            await transport.shutdown()
            throw error
        }
    }

    /// The members to connect to at start: those of the member list this node recovered, and those it was told of
    /// (the configuration, or the list when it joined) that the list does not say were removed.
    private static func knownMembers(
        _ list: MemberList, _ told: [ClusterConfiguration.Node]
    ) -> [ClusterConfiguration.Node] {
        var nodes = Dictionary(told.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        for id in list.removed.keys { nodes[id] = nil }
        for member in list.members { nodes[member.id] = member.node }
        return nodes.values.sorted { $0.id < $1.id }
    }

    var view: DatabaseView { self.database.view }
    var coordinator: Coordinator { self.database.coordinator }
    var clock: ServerClock { self.database.clock }
    var hasFailed: Bool { self.database.hasFailed }
    var notReadyReason: String? { self.database.notReadyReason }

    func waitUntilServing() async { await self.database.waitUntilServing() }
    var walStatistics: WALStatistics { self.database.wal.statistics }

    func readBarrier(namespace: String, path: Path) async throws {
        try await self.database.readBarrier(namespace: namespace, path: path)
    }

    func runServices(log: Log) async {
        self.membership.start(knownPeers: self.transport.peers)
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
            group.addTask {
                await self.answerJoins()
                return false
            }
            group.addTask {
                await self.tendPeers()
                return false
            }
            while let mustStop = await group.next() {
                if mustStop { group.cancelAll() }
            }
        }
    }

    /// How often the leader balance looks at the peers and the shards (`LeaderBalance`): often enough to see a
    /// peer's restart and to end a handover's drain soon after its compare-and-sets finish.
    static let balanceLook = Duration.milliseconds(100)

    /// Hands shards this node leads to their preferred leaders when those are alive, connected, caught up and
    /// settled, draining each shard's compare-and-sets first (`LeaderBalance`).
    private func balanceLeaders(log: Log) async {
        var balance = LeaderBalance(node: self.node)
        while (try? await Task.sleep(for: Self.balanceLook)) != nil {
            let now = ContinuousClock.now
            let alive = Set(self.membership.members.filter { $0.status == .alive }.map(\.id))
            for (peer, link) in self.transport.statistics {
                balance.observe(
                    peer, isReachable: alive.contains(peer) && link.isConnected,
                    connections: link.connectionsEstablished, now: now)
            }
            guard balance.isDue(now: now) else { continue }
            let actions = balance.step(
                now: now, shards: self.database.balanceShards(preferred: self.placement.preferredLeaders))
            guard !actions.isEmpty else { continue }
            let moved = self.database.carryOut(actions, balance: &balance)
            if !moved.isEmpty {
                log.info("cluster.leadership_handed_over", ["shards": moved.map(String.init).joined(separator: ",")])
            }
        }
    }

    func close(log: Log) async {
        self.joinInbox.finish()
        await self.database.close()
        await self.transport.shutdown()
        log.info("node.stopped", ["wal_fsyncs": "\(self.walStatistics.fsyncs)"])
    }
}

/// Where the peer transport's frames go: it is created before the database and membership that handle them, so
/// frames that arrive before those exist are dropped (Raft and SWIM treat that as loss).
private final class PeerInbox: Sendable {
    private let handlers = Lock<(ReplicatedDatabase, MembershipShell)?>(nil)

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
