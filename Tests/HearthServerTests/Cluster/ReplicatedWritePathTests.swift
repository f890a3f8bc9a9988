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

    /// Where a node's transport finds its replication service once it exists.
    final class ServiceSlot: Sendable {
        let current = Mutex<ReplicationService?>(nil)
    }

    /// Where the replication service finds the shard log once it exists.
    final class LogSlot: Sendable {
        let current = Mutex<RaftShardLog?>(nil)
    }

    /// One node's write path over Raft.
    final class Member: Sendable {
        let id: NodeID
        let transport: PeerTransport
        let slot = ServiceSlot()
        let wal: WriteAheadLog
        let service: ReplicationService
        let log: RaftShardLog
        let view: DatabaseView
        let coordinator: Coordinator
        let run: Mutex<Task<Void, Never>?> = Mutex(nil)

        init(_ id: NodeID, directory: String) throws {
            self.id = id
            let slot = self.slot
            self.transport = try PeerTransport(
                configuration: PeerTransport.Configuration(
                    node: id, cluster: "test", listenAddress: try SocketAddress(host: "127.0.0.1", port: 0)),
                log: Log(level: .critical)
            ) { from, kind, payload in
                guard kind == PeerFrameKind.raft.rawValue else { return }
                slot.current.withLock { $0 }?.receive(payload, from: from)
            }
            self.wal = try WriteAheadLog(directory: directory, configuration: WALConfiguration()) { _ in }
            self.wal.start()
            let router = ReplicatedWritePathTests.router
            let view = DatabaseView(shardCount: router.shardCount)
            self.view = view
            let founding = Dictionary(
                uniqueKeysWithValues: (0..<router.shardCount).map {
                    (RaftGroupID(UInt32($0)), RaftMembership(voters: ReplicatedWritePathTests.ids))
                })
            let logSlot = LogSlot()
            let transport = self.transport
            let io = ReplicationService.IO(
                send: { to, bytes in transport.send(bytes, kind: PeerFrameKind.raft.rawValue, to: to) },
                apply: { group, _, entries in
                    await logSlot.current.withLock { $0 }?.committed(shard: Int(group.rawValue), entries)
                },
                observe: { group, state in logSlot.current.withLock { $0 }?.observe(shard: Int(group.rawValue), state) }
            )
            self.service = try ReplicationService(
                configuration: .init(
                    node: id, founding: founding, raft: try RaftConfiguration(electionTicks: 10),
                    tickInterval: .milliseconds(10)),
                recovered: [:], wal: self.wal, io: io, log: Log(level: .critical))
            let log = RaftShardLog(service: self.service, view: view, shardCount: router.shardCount)
            self.log = log
            logSlot.current.withLock { $0 = log }
            let shards = (0..<router.shardCount).map {
                ShardActor(machine: ShardStateMachine(shard: $0, spineDepth: router.shardDepth), log: log)
            }
            log.setApplier(
                RaftShardLog.Applier(
                    apply: { shard, entry, index in await shards[shard].applyCommitted(entry, at: index) },
                    rebuild: { shard, committed in await shards[shard].rebuild(from: committed) }))
            self.coordinator = Coordinator(router: router, shards: shards, log: log, view: view)
            let service = self.service
            slot.current.withLock { $0 = service }
            self.run.withLock { $0 = Task { try? await service.run() } }
        }

        func stop() async {
            let run = self.run.withLock { $0.take() }
            run?.cancel()
            await run?.value
            await self.transport.shutdown()
            await self.wal.close()
        }

        func value(_ path: String) throws -> Node {
            self.view.root("default").node(at: try Path(validating: path))
        }
    }

    private func start() throws -> (TemporaryDirectory, [Member]) {
        let directory = try TemporaryDirectory("replicated-writes")
        let members = try Self.ids.map { try Member($0, directory: directory.child($0.name)) }
        for member in members {
            for other in members where other !== member {
                member.transport.addPeer(
                    other.id, at: try SocketAddress(host: "127.0.0.1", port: other.transport.port))
            }
        }
        return (directory, members)
    }

    /// Writes `value` at `path` through whichever node leads its shard, retrying while leadership settles.
    private func write(_ value: Int, at path: String, members: [Member]) async throws -> Bool {
        let target = try Path(validating: path)
        let mutation = Mutation.set(target, WriteValue(node: Node(.int(Int64(value)))))
        return await eventually(seconds: 30) {
            for member in members {
                do {
                    _ = try await member.coordinator.write(
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
        let (directory, members) = try self.start()
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
        let followers = members.filter { !$0.log.acceptsAppends(shard: shard) }
        #expect(followers.count == 2)
        for follower in followers {
            await #expect(throws: ShardNotLeaderError.self) {
                _ = try await follower.coordinator.write(
                    namespace: "default",
                    mutations: [.set(try Path(validating: "/posts/p0/title"), WriteValue(node: Node(.string("x"))))],
                    condition: nil, now: 0)
            }
        }
        for member in members { await member.stop() }
        try directory.remove()
    }

    @Test(.timeLimit(.minutes(1))) func whenTheLeaderStopsAnotherNodeTakesOverWithEveryWrite() async throws {
        let (directory, members) = try self.start()
        #expect(try await self.write(1, at: "/posts/p0/starCount", members: members))
        let shard = Self.router.shards(namespace: "default", mutation: try Path(validating: "/posts/p0"))[0]
        let leader = try #require(members.first { $0.log.acceptsAppends(shard: shard) })
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
}
