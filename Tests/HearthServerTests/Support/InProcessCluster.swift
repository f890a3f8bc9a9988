import HearthCluster
import HearthCore
import HearthNet
import HearthStorage
import HearthSystem
import HearthTestKit
import HearthWire
import Synchronization
import Testing

@testable import HearthServer

/// Cluster nodes in one process, each with its own write-ahead log, peer transport (on loopback), Raft groups (one
/// per shard), shard actors, coordinator and read view: what the cluster tests run a replicated write path on.
enum InProcessCluster {
    /// One node: its transport (which outlives restarts, as a peer's address does) and its database.
    final class Member: Sendable {
        let id: NodeID
        let directory: String
        /// Each shard's founding replica set.
        let founding: [RaftGroupID: RaftMembership]
        let router: ShardRouter
        /// When the node snapshots its shards, and how large its write-ahead log's segments grow.
        let snapshots: ShardSnapshotPolicy
        let walSegmentBytes: Int
        let transport: PeerTransport
        /// Where the transport finds the database while one is open.
        let slot = Slot<ReplicatedDatabase>()
        let run: Mutex<Task<Void, Never>?> = Mutex(nil)

        init(
            _ id: NodeID, directory: String, founding: [RaftGroupID: RaftMembership], router: ShardRouter,
            snapshots: ShardSnapshotPolicy = ShardSnapshotPolicy(),
            walSegmentBytes: Int = WALConfiguration().segmentBytes
        ) throws {
            self.id = id
            self.router = router
            self.snapshots = snapshots
            self.walSegmentBytes = walSegmentBytes
            self.directory = directory
            self.founding = founding
            let slot = self.slot
            self.transport = try PeerTransport(
                configuration: PeerTransport.Configuration(
                    node: id, cluster: "test", listenAddress: try SocketAddress(host: "127.0.0.1", port: 0)),
                log: Log(level: .critical)
            ) { from, kind, payload in
                guard let kind = PeerFrameKind(rawValue: kind) else { return }
                slot.current?.receive(kind: kind, payload, from: from)
            }
        }

        /// Opens (recovering) the node's database and runs its groups.
        func open() async throws {
            let router = self.router
            let transport = self.transport
            let database = try await ReplicatedDatabase.open(
                directory: self.directory, node: self.id, router: router, founding: self.founding,
                raft: try RaftConfiguration(electionTicks: 10), tickInterval: .milliseconds(10),
                commitTimeout: .seconds(2), snapshots: self.snapshots, walSegmentBytes: self.walSegmentBytes,
                send: { to, kind, bytes in transport.send(bytes, kind: kind, to: to) }, logger: Log(level: .critical))
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
    /// learners).
    static func start(
        _ ids: [NodeID], router: ShardRouter, replicationFactor: Int = 3,
        snapshots: ShardSnapshotPolicy = ShardSnapshotPolicy(), walSegmentBytes: Int = WALConfiguration().segmentBytes
    ) async throws -> (TemporaryDirectory, [Member]) {
        let directory = try TemporaryDirectory("replicated-writes")
        let founding = ShardPlacement(
            members: ids, shardCount: router.shardCount, replicationFactor: replicationFactor
        ).foundingGroups
        let members = try ids.map {
            try Member(
                $0, directory: directory.child($0.name), founding: founding, router: router, snapshots: snapshots,
                walSegmentBytes: walSegmentBytes)
        }
        for member in members {
            for other in members where other !== member {
                member.transport.addPeer(
                    other.id, at: try SocketAddress(host: "127.0.0.1", port: other.transport.port))
            }
        }
        for member in members { try await member.open() }
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

    /// Writes `value` at `path` through the first member that is open, retrying while leadership settles.
    static func write(
        _ value: Int, at path: String, members: [Member], retryingUnconfirmed: Bool = false
    ) async throws -> Bool {
        let target = try Path(validating: path)
        return await Self.write(
            [.set(target, WriteValue(node: Node(.int(Int64(value)))))], members: members,
            retryingUnconfirmed: retryingUnconfirmed)
    }

    /// Applies `mutations` through the first member that is open, retrying while leadership settles (a write
    /// whose entry another leader replaced, or that found no leader yet, is retried). With `retryingUnconfirmed`, a
    /// write not confirmed in time (its outcome unknown) is retried too: only for writes that may safely apply twice.
    static func write(_ mutations: [Mutation], members: [Member], retryingUnconfirmed: Bool = false) async -> Bool {
        await eventually(seconds: 30) {
            for member in members {
                guard let database = member.database else { continue }
                do {
                    _ = try await database.coordinator.write(
                        namespace: "default", mutations: mutations, condition: nil, now: 0)
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
