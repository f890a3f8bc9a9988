import HearthCluster
import HearthCore
import HearthNet
import HearthStorage
import HearthSystem
import HearthTestKit
import HearthWire
import Testing

@testable import HearthDatabase
@testable import HearthReplication
@testable import HearthServer

/// Three nodes in one process, each with its own write-ahead log, peer transport, Raft groups (one per shard),
/// shard actors, coordinator and read view: a write made on any node goes to its shards' leaders and is shown in
/// every node's view.
@Suite(.serialized) struct ReplicatedWritePathTests {
    static let router = ShardRouter(shardCount: 4, shardDepth: 2)

    typealias Member = InProcessCluster.Member

    @Test(.timeLimit(.minutes(1))) func aWriteOnTheLeaderIsShownOnEveryNode() async throws {
        try await InProcessCluster.with(router: Self.router) { (members) async throws in
            // Ready once every shard has a leader and each node applied what it knows was committed.
            #expect(await eventually(seconds: 30) { members.allSatisfy { $0.database?.notReadyReason == nil } })
            for post in 0..<8 {
                #expect(try await InProcessCluster.write(post * 10, at: "/posts/p\(post)/starCount", members: members))
            }
            for post in 0..<8 {
                let expected = Node(.int(Int64(post * 10)))
                #expect(
                    await eventually(seconds: 30) {
                        members.allSatisfy { (try? $0.value("/posts/p\(post)/starCount")) == expected }
                    })
            }
        }
    }

    @Test(.timeLimit(.minutes(1))) func aWriteOnANodeThatLeadsNoneOfItsShardsGoesToTheirLeaders() async throws {
        try await InProcessCluster.with(router: Self.router) { (members) async throws in
            #expect(await eventually(seconds: 30) { members.allSatisfy { $0.database?.notReadyReason == nil } })
            let paths = try (0..<8).map { try Path(validating: "/posts/p\($0)/starCount") }
            let shards = Set(paths.flatMap { Self.router.shards(namespace: "default", mutation: $0) })
            #expect(shards.count > 1)
            for member in members {
                let database = try #require(member.database)
                // A single-shard write, a multi-shard update and a compare-and-set, each sent to this member.
                _ = try await database.coordinator.write(
                    namespace: "default", mutations: [.set(paths[0], WriteValue(node: Node(.string(member.id.name))))],
                    conditions: [], now: 0)
                let update = paths.map { Mutation.set($0, WriteValue(node: Node(.string(member.id.name)))) }
                _ = try await database.coordinator.write(
                    namespace: "default", mutations: update, conditions: [], now: 0)
                let current = database.view.root("default").node(at: paths[1])
                let outcome = try await database.coordinator.write(
                    namespace: "default", mutations: [.set(paths[1], WriteValue(node: Node(.int(7))))],
                    conditions: [WriteCondition(path: paths[1], expectedHash: current.hash)], now: 0)
                guard case .committed = outcome else {
                    Issue.record("the compare-and-set on \(member.id.name) failed against its own read")
                    continue
                }
                // Acknowledged means shown by the node that took the write.
                #expect(database.view.root("default").node(at: paths[2]) == Node(.string(member.id.name)))
                #expect(database.view.root("default").node(at: paths[1]) == Node(.int(7)))
            }
            #expect(
                await eventually(seconds: 30) {
                    members.allSatisfy { member in
                        (try? member.value("/posts/p1/starCount")) == Node(.int(7))
                            && (2..<8).allSatisfy {
                                (try? member.value("/posts/p\($0)/starCount")) == Node(.string("n3"))
                            }
                    }
                })
        }
    }

    /// A leader balance that starts its handovers at every look and waits for nothing.
    static let promptBalance = LeaderBalance.Settings(
        settlePeriod: .zero, round: .zero, drainBound: .zero, handoverBound: .seconds(1))

    /// One member's leader balance, stepped as `ClusterNode.balanceLeaders` steps it, with every peer reachable.
    final class BalanceDriver: Sendable {
        let member: InProcessCluster.Member
        private let balance: Lock<LeaderBalance>

        init(member: InProcessCluster.Member, settings: LeaderBalance.Settings) {
            self.member = member
            self.balance = Lock(LeaderBalance(node: member.id, settings: settings))
        }

        func step(peers: [NodeID], preferred: [NodeID]) {
            guard let database = self.member.database else { return }
            let now = ContinuousClock.now
            self.balance.withLock { balance in
                for peer in peers where peer != self.member.id {
                    balance.observe(peer, isReachable: true, connections: 1, now: now)
                }
                let actions = balance.step(now: now, shards: database.balanceShards(preferred: preferred))
                _ = database.carryOut(actions, balance: &balance)
            }
        }
    }

    @Test(.timeLimit(.minutes(1))) func leadershipMovesToThePreferredLeadersAndWritesGoOn() async throws {
        try await InProcessCluster.with(router: Self.router) { (members) async throws in
            let placement = ShardPlacement(
                members: members.map(\.id), shardCount: Self.router.shardCount, replicationFactor: 3)
            #expect(await eventually(seconds: 30) { members.allSatisfy { $0.database?.notReadyReason == nil } })
            var post = 0
            let balances = members.map { BalanceDriver(member: $0, settings: Self.promptBalance) }
            let ids = members.map { $0.id }
            let preferred = placement.preferredLeaders
            let balanced = await eventually(seconds: 30, every: 0.05) {
                for balance in balances { balance.step(peers: ids, preferred: preferred) }
                post += 1
                _ = try? await InProcessCluster.write(post, at: "/posts/p\(post % 8)/starCount", members: members)
                return (0..<Self.router.shardCount).allSatisfy { shard in
                    members.first { $0.acceptsAppends(shard: shard) }?.id == placement.preferredLeaders[shard]
                }
            }
            #expect(balanced)
            // Each node leads its even share of the shards.
            let counts = Dictionary(grouping: placement.preferredLeaders, by: { $0 }).mapValues(\.count)
            #expect(counts.values.max() ?? 0 <= (Self.router.shardCount + members.count - 1) / members.count)
            #expect(try await InProcessCluster.write(99, at: "/posts/p0/starCount", members: members))
        }
    }

    @Test(.timeLimit(.minutes(1))) func whenTheLeaderStopsAnotherNodeTakesOverWithEveryWrite() async throws {
        try await InProcessCluster.with(router: Self.router) { (members) async throws in
            #expect(try await InProcessCluster.write(1, at: "/posts/p0/starCount", members: members))
            let shard = Self.router.shards(namespace: "default", mutation: try Path(validating: "/posts/p0"))[0]
            let leader = try await InProcessCluster.leader(of: shard, among: members)
            await leader.stop()
            let survivors = members.filter { $0 !== leader }
            #expect(try await InProcessCluster.write(2, at: "/posts/p0/starCount", members: survivors))
            #expect(try await InProcessCluster.write(3, at: "/posts/p0/likes", members: survivors))
            #expect(
                await eventually(seconds: 30) {
                    survivors.allSatisfy { member in
                        (try? member.value("/posts/p0/starCount")) == Node(.int(2))
                            && (try? member.value("/posts/p0/likes")) == Node(.int(3))
                    }
                })
        }
    }

    @Test(.timeLimit(.minutes(1))) func aLeaderCutOffFromItsMajorityAcknowledgesNothing() async throws {
        try await InProcessCluster.with(router: Self.router) { (members) async throws in
            #expect(await eventually(seconds: 30) { members.allSatisfy { $0.database?.notReadyReason == nil } })
            let target = try Path(validating: "/posts/p0/starCount")
            let shard = try #require(Self.router.shard(namespace: "default", path: target))
            let leader = try await InProcessCluster.leader(of: shard, among: members)
            for member in members where member !== leader { await member.close() }
            let database = try #require(leader.database)
            // The leader still takes the write (it has not noticed yet), but it can never commit.
            await #expect(throws: CommitTimeoutError.self) {
                _ = try await database.coordinator.write(
                    namespace: "default", mutations: [.set(target, WriteValue(node: Node(.int(1))))],
                    conditions: [], now: 0)
            }
            #expect(leader.database?.view.root("default").node(at: target) == Node.empty)
        }
    }

    /// A leader that lost its majority but has not noticed still holds a state machine; a compare-and-set refused
    /// against it could be refused against data a newer leader has already changed. A refusal stands only once the
    /// leader confirmed its lead after the check (`ShardLog.confirmRefusal`), so the cut-off leader refuses nothing.
    @Test(.timeLimit(.minutes(1))) func aLeaderCutOffFromItsMajorityRefusesNoCompareAndSet() async throws {
        try await InProcessCluster.with(router: Self.router) { (members) async throws in
            #expect(await eventually(seconds: 30) { members.allSatisfy { $0.database?.notReadyReason == nil } })
            let target = try Path(validating: "/posts/p0/starCount")
            let shard = try #require(Self.router.shard(namespace: "default", path: target))
            let leader = try await InProcessCluster.leader(of: shard, among: members)
            let database = try #require(leader.database)
            let stale = WriteCondition(path: target, expectedHash: Node(.int(7)).hash)
            let set = [Mutation.set(target, WriteValue(node: Node(.int(1))))]
            guard
                case .conditionFailed(let current) = try await database.coordinator.write(
                    namespace: "default", mutations: set, conditions: [stale], now: 0)
            else {
                Issue.record("a compare-and-set against the wrong value was carried out")
                return
            }
            #expect(current == Node.empty)
            for member in members where member !== leader { await member.close() }
            await #expect(throws: (any Error).self) {
                _ = try await database.coordinator.write(
                    namespace: "default", mutations: set, conditions: [stale], now: 0)
            }
            #expect(leader.database?.view.root("default").node(at: target) == Node.empty)
        }
    }

    @Test(.timeLimit(.minutes(1))) func aRestartedNodeRecoversFromItsLogAndCatchesUp() async throws {
        try await InProcessCluster.with(router: Self.router) { (members) async throws in
            for post in 0..<4 {
                #expect(try await InProcessCluster.write(post, at: "/posts/p\(post)/starCount", members: members))
            }
            let restarted = members[2]
            #expect(
                await eventually(seconds: 30) {
                    (0..<4).allSatisfy { (try? restarted.value("/posts/p\($0)/starCount")) == Node(.int(Int64($0))) }
                })
            await restarted.close()
            for post in 4..<6 {
                #expect(
                    try await InProcessCluster.write(
                        post, at: "/posts/p\(post)/starCount", members: Array(members.prefix(2))))
            }
            try await restarted.open()
            // What it had before the restart comes from its own log at once; the rest from the leaders.
            #expect((try restarted.value("/posts/p0/starCount")) == Node(.int(0)))
            #expect(
                await eventually(seconds: 30) {
                    (0..<6).allSatisfy { (try? restarted.value("/posts/p\($0)/starCount")) == Node(.int(Int64($0))) }
                })
        }
    }

    @Test(.timeLimit(.minutes(1))) func learnersShowEveryWriteAndPassTheirWritesToTheLeaders() async throws {
        let ids: [NodeID] = ["n1", "n2", "n3", "n4"]
        try await InProcessCluster.with(ids, router: Self.router) { (members) async throws in
            for post in 0..<6 {
                // Through n4, a learner of some shards.
                #expect(try await InProcessCluster.write(post, at: "/posts/p\(post)/starCount", members: [members[3]]))
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
        }
    }
}
