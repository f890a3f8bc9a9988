import Foundation
import HearthCluster
import HearthCore
import HearthNet
import HearthStorage
import HearthSystem
import HearthTestKit
import HearthWire
import Synchronization
import Testing

@testable import HearthDatabase
@testable import HearthReplication
@testable import HearthServer

/// Cluster nodes in one process, each with its own write-ahead log, peer transport (on loopback), Raft groups (one
/// per shard), shard actors, coordinator and read view: what the cluster tests run a replicated write path on.
enum InProcessCluster {
    /// The cluster secret every member's transport proves.
    static let secret: PeerClusterSecret = {
        guard let secret = PeerClusterSecret(keys: [Array("in-process cluster secret of 32+ bytes".utf8)]) else {
            fatalError("the in-process cluster's secret is too short")
        }
        return secret
    }()

    /// One node: its transport (which outlives restarts, as a peer's address does) and its database.
    final class Member: Sendable {
        let id: NodeID
        let directory: String
        /// The HTTP port the member list names for it (nothing listens there in process).
        let httpPort: Int
        let router: ShardRouter
        /// When the node snapshots its shards, and how large its write-ahead log's segments grow.
        let snapshots: ShardSnapshotPolicy
        let walSegmentBytes: Int
        let transport: PeerTransport
        /// Where the transport finds the database while one is open.
        let slot = Slot<ReplicatedDatabase>()
        let run: Mutex<Task<Void, Never>?> = Mutex(nil)
        /// Each group's founding replica set and the member list the cluster was founded with (`found`).
        private let founding = Mutex<(groups: [RaftGroupID: RaftMembership], list: MemberList)?>(nil)

        init(
            _ id: NodeID, directory: String, httpPort: Int, router: ShardRouter,
            snapshots: ShardSnapshotPolicy = ShardSnapshotPolicy(),
            walSegmentBytes: Int = WALConfiguration().segmentBytes
        ) throws {
            self.id = id
            self.router = router
            self.snapshots = snapshots
            self.walSegmentBytes = walSegmentBytes
            self.directory = directory
            self.httpPort = httpPort
            let slot = self.slot
            self.transport = try PeerTransport(
                configuration: PeerTransport.Configuration(
                    node: id, cluster: "test", secret: InProcessCluster.secret,
                    listenAddress: try SocketAddress(host: "127.0.0.1", port: 0)),
                log: Log(level: .critical)
            ) { from, kind, payload in
                guard let kind = PeerFrameKind(rawValue: kind) else { return }
                slot.current?.receive(kind: kind, payload, from: from)
            }
        }

        /// The member as the member list names it.
        var node: ClusterConfiguration.Node {
            ClusterConfiguration.Node(
                id: self.id, host: "127.0.0.1", httpPort: self.httpPort, peerPort: self.transport.port)
        }

        /// Sets what the node's groups and member list start from when its log holds nothing of them.
        func found(groups: [RaftGroupID: RaftMembership], list: MemberList) {
            self.founding.withLock { $0 = (groups, list) }
        }

        /// The member list the cluster was founded with.
        var foundingList: MemberList? { self.founding.withLock { $0?.list } }

        /// Opens (recovering) the node's database and runs its groups; every member the list gains becomes a peer.
        func open() async throws {
            guard let founding = self.founding.withLock({ $0 }) else {
                throw TestClientError(description: "\(self.id) was opened before found(groups:list:)")
            }
            let router = self.router
            let transport = self.transport
            let database = try await ReplicatedDatabase.open(
                directory: self.directory, node: self.id, router: router, founding: founding.groups,
                members: founding.list, raft: try RaftConfiguration(electionTicks: 10), tickInterval: .milliseconds(10),
                commitTimeout: .seconds(2), snapshots: self.snapshots, walSegmentBytes: self.walSegmentBytes,
                rebalanceInterval: .milliseconds(30),
                send: { to, kind, bytes in transport.send(bytes, kind: kind, to: to) }, logger: Log(level: .critical))
            database.directory.onChange { list in
                for member in list.members {
                    guard let address = try? SocketAddress(host: member.node.host, port: member.node.peerPort) else {
                        continue
                    }
                    transport.addPeer(member.id, at: address)
                }
            }
            self.slot.set(database)
            self.run.withLock { $0 = Task { try? await database.run() } }
        }

        /// Stops the groups and closes the log; the transport stays up.
        func close() async {
            let run = self.run.withLock { $0.take() }
            run?.cancel()
            await run?.value
            let database = self.slot.take()
            await database?.close()
        }

        func stop() async {
            await self.close()
            await self.transport.shutdown()
        }

        var database: ReplicatedDatabase? { self.slot.current }

        func value(_ path: String) throws -> Node? {
            self.database?.view.root("default").node(at: try Path(validating: path))
        }

        func acceptsAppends(shard: Int) -> Bool { self.database?.log.acceptsAppends(shard: shard) ?? false }
    }

    /// Starts `ids` with each shard's group founded by the placement (`replicationFactor` voters, the rest
    /// learners), and the member list's group by `MemberList.targets`.
    static func start(
        _ ids: [NodeID], router: ShardRouter, replicationFactor: Int = 3,
        snapshots: ShardSnapshotPolicy = ShardSnapshotPolicy(), walSegmentBytes: Int = WALConfiguration().segmentBytes
    ) async throws -> (TemporaryDirectory, [Member]) {
        let directory = try TemporaryDirectory("replicated-writes")
        let members = try ids.enumerated().map { index, id in
            try Member(
                id, directory: directory.child(id.name), httpPort: index + 1, router: router, snapshots: snapshots,
                walSegmentBytes: walSegmentBytes)
        }
        let list = MemberList(
            founding: try ClusterConfiguration(
                name: "test", nodes: members.map(\.node), shards: router.shardCount,
                replicationFactor: replicationFactor))
        for member in members {
            member.found(groups: list.targets(shardCount: router.shardCount), list: list)
            for other in members where other !== member {
                member.transport.addPeer(
                    other.id, at: try SocketAddress(host: "127.0.0.1", port: other.transport.port))
            }
        }
        // Opening takes one slot of the gate that process nodes take too, so a burst of cluster tests does not start
        // dozens of nodes on two cores at once.
        try await StartGate.nodes.withSlot {
            for member in members { try await member.open() }
        }
        return (directory, members)
    }

    /// Starts `ids`, runs `body` on them, then stops every member and removes their data, whether `body` returned,
    /// threw or gave up early (a test that fails half-way must not leave nodes ticking under the rest of the suite).
    static func with(
        _ ids: [NodeID] = ["n1", "n2", "n3"], router: ShardRouter, replicationFactor: Int = 3,
        snapshots: ShardSnapshotPolicy = ShardSnapshotPolicy(), walSegmentBytes: Int = WALConfiguration().segmentBytes,
        _ body: ([Member]) async throws -> Void
    ) async throws {
        let (directory, members) = try await Self.start(
            ids, router: router, replicationFactor: replicationFactor, snapshots: snapshots,
            walSegmentBytes: walSegmentBytes)
        let outcome: Result<Void, any Error>
        do {
            try await body(members)
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        for member in members { await member.stop() }
        directory.remove()
        try outcome.get()
    }

    /// Proposes `change` to the member list through whichever member leads it, retrying while leadership settles.
    static func changeMembers(_ change: MemberChange, members: [Member]) async -> MemberChangeOutcome? {
        var outcome: MemberChangeOutcome?
        _ = await eventually(seconds: 30) {
            for member in members {
                guard let database = member.database, database.memberListLeader == member.id else { continue }
                do {
                    outcome = try await database.proposeMemberChange(change)
                    return true
                } catch {
                    return false
                }
            }
            return false
        }
        return outcome
    }

    /// Adds a node named `id` to the running cluster of `members`, as `hearth serve --join` does: the member list
    /// takes it, then it starts with every group empty, waiting for the groups' leaders to add it. Its data lives
    /// beside the others'; the caller stops it.
    static func join(_ id: NodeID, httpPort: Int, to members: [Member]) async throws -> Member {
        guard let first = members.first, let list = first.foundingList else {
            throw TestClientError(description: "no founded member to join")
        }
        let member = try Member(
            id, directory: (first.directory as NSString).deletingLastPathComponent + "/" + id.name,
            httpPort: httpPort, router: first.router, snapshots: first.snapshots,
            walSegmentBytes: first.walSegmentBytes)
        do {
            let outcome = await Self.changeMembers(.add(member.node), members: members)
            guard outcome == .changed || outcome == .unchanged else {
                throw TestClientError(description: "the member list did not take \(id): \(String(describing: outcome))")
            }
            for other in members {
                member.transport.addPeer(other.id, at: try SocketAddress(host: "127.0.0.1", port: other.transport.port))
            }
            let empty = Dictionary(
                uniqueKeysWithValues: list.targets(shardCount: first.router.shardCount).keys.map {
                    ($0, RaftMembership.empty)
                })
            member.found(groups: empty, list: list)
            try await member.open()
        } catch {
            await member.stop()
            throw error
        }
        return member
    }

    /// The member that leads `shard` and takes its writes, once one does (a ready cluster may still be moving a
    /// leadership, or a new leader may still be applying its predecessors' entries).
    static func leader(of shard: Int, among members: [Member]) async throws -> Member {
        var found: Member?
        _ = await eventually(seconds: 30) {
            found = members.first { $0.acceptsAppends(shard: shard) }
            return found != nil
        }
        guard let found else {
            throw TestClientError(description: "no member took writes for shard \(shard) within 30 s")
        }
        return found
    }

    /// Writes `value` at `path` through the first member that is open, retrying while leadership settles and when
    /// a write is not confirmed in time (setting a value twice leaves the same tree; a starved machine misses the
    /// in-process nodes' 2 s commit timeout).
    static func write(_ value: Int, at path: String, members: [Member]) async throws -> Bool {
        let target = try Path(validating: path)
        return await Self.write(
            [.set(target, WriteValue(node: Node(.int(Int64(value)))))], members: members, retryingUnconfirmed: true)
    }

    /// Applies `mutations` through the first member that is open, retrying while leadership settles (a write
    /// whose entry another leader replaced, or that found no leader yet, is retried). With `retryingUnconfirmed`, a
    /// write not confirmed in time (its outcome unknown) is retried too: only for writes that may safely apply twice,
    /// or that name their `origin`, which every shard applies once.
    static func write(
        _ mutations: [Mutation], members: [Member], retryingUnconfirmed: Bool = false, origin: WriteOrigin? = nil
    ) async -> Bool {
        await eventually(seconds: 30) {
            for member in members {
                guard let database = member.database else { continue }
                do {
                    _ = try await database.coordinator.write(
                        namespace: "default", mutations: mutations, conditions: [], now: 0, origin: origin)
                    return true
                } catch is ShardNotCommittedError {
                    return false
                } catch is ShardCallError {
                    return false
                } catch is CommitTimeoutError where retryingUnconfirmed {
                    return false
                } catch {
                    Issue.record("the write failed: \(error)")
                    return true
                }
            }
            return false
        }
    }
}
