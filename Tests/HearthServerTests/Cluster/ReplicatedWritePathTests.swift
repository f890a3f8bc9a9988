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

/// Three nodes in one process, each with its own write-ahead log, peer transport, Raft groups (one per shard),
/// shard actors, coordinator and read view: a write made on a shard's leader is shown in every node's view; a node
/// that does not lead a shard refuses to write to it.
@Suite(.serialized) struct ReplicatedWritePathTests {
    static let ids: [NodeID] = ["n1", "n2", "n3"]
    static let router = ShardRouter(shardCount: 4, shardDepth: 2)

    /// One node: its transport (which outlives restarts, as a peer's address does) and its database.
    final class Member: Sendable {
        let id: NodeID
        let directory: String
        /// Each shard's founding replica set.
        let founding: [RaftGroupID: RaftMembership]
        let transport: PeerTransport
        /// Where the transport finds the database while one is open.
        let slot = Slot<ReplicatedDatabase>()
        let run: Mutex<Task<Void, Never>?> = Mutex(nil)

        init(_ id: NodeID, directory: String, founding: [RaftGroupID: RaftMembership]) throws {
            self.id = id
            self.directory = directory
            self.founding = founding
            let slot = self.slot
            self.transport = try PeerTransport(
                configuration: PeerTransport.Configuration(
                    node: id, cluster: "test", listenAddress: try SocketAddress(host: "127.0.0.1", port: 0)),
                log: Log(level: .critical)
            ) { from, kind, payload in
                guard kind == PeerFrameKind.raft.rawValue else { return }
                slot.current?.service.receive(payload, from: from)
            }
        }

        /// Opens (recovering) the node's database and runs its groups.
        func open() async throws {
            let router = ReplicatedWritePathTests.router
            let transport = self.transport
            let database = try await ReplicatedDatabase.open(
                directory: self.directory, node: self.id, router: router, founding: self.founding,
                raft: try RaftConfiguration(electionTicks: 10), tickInterval: .milliseconds(10),
                send: { to, bytes in transport.send(bytes, kind: PeerFrameKind.raft.rawValue, to: to) },
                logger: Log(level: .critical))
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
    private func start(_ ids: [NodeID] = Self.ids, replicationFactor: Int = 3) async throws
        -> (TemporaryDirectory, [Member])
    {
        let directory = try TemporaryDirectory("replicated-writes")
        let founding = ShardPlacement(
            members: ids, shardCount: Self.router.shardCount, replicationFactor: replicationFactor
        ).foundingGroups
        let members = try ids.map { try Member($0, directory: directory.child($0.name), founding: founding) }
        for member in members {
            for other in members where other !== member {
                member.transport.addPeer(
                    other.id, at: try SocketAddress(host: "127.0.0.1", port: other.transport.port))
            }
        }
        for member in members { try await member.open() }
        return (directory, members)
    }

    /// Writes `value` at `path` through whichever node leads its shard, retrying while leadership settles.
    private func write(_ value: Int, at path: String, members: [Member]) async throws -> Bool {
        let target = try Path(validating: path)
        let mutation = Mutation.set(target, WriteValue(node: Node(.int(Int64(value)))))
        return await eventually(seconds: 30) {
            for member in members {
                guard let database = member.database else { continue }
                do {
                    _ = try await database.coordinator.write(
                        namespace: "default", mutations: [mutation], condition: nil, now: 0)
                    return true
                } catch is ShardNotLeaderError {
                    continue
                } catch is ShardNotCommittedError {
                    continue
                } catch {
                    return false
                }
            }
            return false
        }
    }

    @Test(.timeLimit(.minutes(1))) func aWriteOnTheLeaderIsShownOnEveryNode() async throws {
        let (directory, members) = try await self.start()
        // Ready once every shard has a leader and each node applied what it knows was committed.
        #expect(await eventually(seconds: 30) { members.allSatisfy { $0.database?.notReadyReason == nil } })
        for post in 0..<8 {
            #expect(try await self.write(post * 10, at: "/posts/p\(post)/starCount", members: members))
        }
        for post in 0..<8 {
            let expected = Node(.int(Int64(post * 10)))
            #expect(
                await eventually(seconds: 30) {
                    members.allSatisfy { (try? $0.value("/posts/p\(post)/starCount")) == expected }
                })
        }
        let shard = Self.router.shards(namespace: "default", mutation: try Path(validating: "/posts/p0"))[0]
        let followers = members.filter { !$0.acceptsAppends(shard: shard) }
        #expect(followers.count == 2)
        for follower in followers {
            await #expect(throws: ShardNotLeaderError.self) {
                _ = try await follower.database?.coordinator.write(
                    namespace: "default",
                    mutations: [.set(try Path(validating: "/posts/p0/title"), WriteValue(node: Node(.string("x"))))],
                    condition: nil, now: 0)
            }
        }
        for member in members { await member.stop() }
        try directory.remove()
    }

    @Test(.timeLimit(.minutes(1))) func whenTheLeaderStopsAnotherNodeTakesOverWithEveryWrite() async throws {
        let (directory, members) = try await self.start()
        #expect(try await self.write(1, at: "/posts/p0/starCount", members: members))
        let shard = Self.router.shards(namespace: "default", mutation: try Path(validating: "/posts/p0"))[0]
        let leader = try #require(members.first { $0.acceptsAppends(shard: shard) })
        await leader.stop()
        let survivors = members.filter { $0 !== leader }
        #expect(try await self.write(2, at: "/posts/p0/starCount", members: survivors))
        #expect(try await self.write(3, at: "/posts/p0/likes", members: survivors))
        #expect(
            await eventually(seconds: 30) {
                survivors.allSatisfy { member in
                    (try? member.value("/posts/p0/starCount")) == Node(.int(2))
                        && (try? member.value("/posts/p0/likes")) == Node(.int(3))
                }
            })
        for member in survivors { await member.stop() }
        try directory.remove()
    }

    @Test(.timeLimit(.minutes(1))) func aRestartedNodeRecoversFromItsLogAndCatchesUp() async throws {
        let (directory, members) = try await self.start()
        for post in 0..<4 {
            #expect(try await self.write(post, at: "/posts/p\(post)/starCount", members: members))
        }
        let restarted = members[2]
        #expect(
            await eventually(seconds: 30) {
                (0..<4).allSatisfy { (try? restarted.value("/posts/p\($0)/starCount")) == Node(.int(Int64($0))) }
            })
        await restarted.close()
        for post in 4..<6 {
            #expect(try await self.write(post, at: "/posts/p\(post)/starCount", members: Array(members.prefix(2))))
        }
        try await restarted.open()
        // What it had before the restart comes from its own log at once; the rest from the leaders.
        #expect((try restarted.value("/posts/p0/starCount")) == Node(.int(0)))
        #expect(
            await eventually(seconds: 30) {
                (0..<6).allSatisfy { (try? restarted.value("/posts/p\($0)/starCount")) == Node(.int(Int64($0))) }
            })
        for member in members { await member.stop() }
        try directory.remove()
    }

    @Test(.timeLimit(.minutes(1))) func learnersShowEveryWriteAndRefuseWrites() async throws {
        let (directory, members) = try await self.start(["n1", "n2", "n3", "n4"], replicationFactor: 3)
        for post in 0..<6 {
            #expect(try await self.write(post, at: "/posts/p\(post)/starCount", members: members))
        }
        #expect(
            await eventually(seconds: 30) {
                members.allSatisfy { member in
                    (0..<6).allSatisfy { (try? member.value("/posts/p\($0)/starCount")) == Node(.int(Int64($0))) }
                }
            })
        let placement = ShardPlacement(members: members.map(\.id), shardCount: 4, replicationFactor: 3)
        for shard in 0..<4 {
            let learner = members.first { !placement.replicas[shard].contains($0.id) }
            #expect(learner?.acceptsAppends(shard: shard) == false)
        }
        for member in members { await member.stop() }
        try directory.remove()
    }
}
