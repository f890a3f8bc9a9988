import HearthCluster
import HearthCore
import HearthSystem
import HearthTestKit
import HearthWire
import Testing

@testable import HearthDatabase
@testable import HearthReplication
@testable import HearthServer

/// Shards spread over fewer Raft groups (the configuration's `groups`): a path hashes into one of the configuration's
/// shards and that shard's group holds it, so a write across shards of one group is one entry of one log, shown
/// whole on every replica, and snapshots, catch-up and restarts keep every acknowledged write.
@Suite(.serialized) struct GroupedShardsTests {
    typealias Member = InProcessCluster.Member

    /// Sixteen shards in one group, as `cluster-config/local-3.json` runs.
    static let oneGroup = ShardRouter(shardCount: 1, shardDepth: 2, hashBuckets: 16)
    /// The same sixteen shards, one group each.
    static let sixteenGroups = ShardRouter(shardCount: 16, shardDepth: 2)

    /// A star's two locations (a post and its author's list) in different shards of the sixteen.
    static func starPaths() throws -> (post: Path, list: Path) {
        let list = try Path(validating: "/user-posts/u1/p1")
        for post in 0..<64 {
            let path = try Path(validating: "/posts/p\(post)/starCount")
            if Self.sixteenGroups.shard(namespace: "default", path: path)
                != Self.sixteenGroups.shard(namespace: "default", path: list)
            {
                return (path, list)
            }
        }
        throw CommitRecordError("no post of 64 hashes apart from the list")
    }

    /// A path's group is its shard modulo the groups, and a router with one bucket per shard routes as it always did.
    @Test func aShardBelongsToItsShardModuloTheGroups() throws {
        let three = ShardRouter(shardCount: 3, shardDepth: 2, hashBuckets: 16)
        let plain = ShardRouter(shardCount: 16, shardDepth: 2, hashBuckets: nil)
        #expect(plain.hashBuckets == 16)
        #expect(ShardRouter(shardCount: 4, shardDepth: 2, hashBuckets: 2).hashBuckets == 4)
        for post in 0..<200 {
            let path = try Path(validating: "/posts/p\(post)/stars")
            let shard = try #require(Self.sixteenGroups.shard(namespace: "default", path: path))
            #expect(plain.shard(namespace: "default", path: path) == shard)
            #expect(three.shard(namespace: "default", path: path) == shard % 3)
            #expect(Self.oneGroup.shard(namespace: "default", path: path) == 0)
        }
        let (post, list) = try Self.starPaths()
        #expect(Self.oneGroup.shards(namespace: "default", mutation: post) == [0])
        #expect(Self.oneGroup.shards(namespace: "default", mutation: list) == [0])
        #expect(three.shards(namespace: "default", mutation: try Path(validating: "/posts")) == [0, 1, 2])
    }

    /// A spine value's JSON is cut along the same lines as the value (`split(json:)` routes by the same buckets).
    @Test func aSpineValueIsCutByTheGroupedRouter() throws {
        let three = ShardRouter(shardCount: 3, shardDepth: 2, hashBuckets: 16)
        let text = (0..<40).map { "\"p\($0)\": {\"stars\": \($0)}" }.joined(separator: ", ")
        let parts = try #require(
            three.split(json: Array("{\(text)}".utf8), at: Fixture.path("posts"), namespace: "default"))
        #expect(parts.count == 3)
        for post in 0..<40 {
            let path = try Path(validating: "/posts/p\(post)")
            let shard = try #require(three.shard(namespace: "default", path: path))
            for (index, part) in parts.enumerated() {
                let holds = String(decoding: part, as: UTF8.self).contains("\"p\(post)\":")
                #expect(holds == (index == shard), "p\(post) in part \(index), routed to \(shard)")
            }
        }
    }

    /// The leader of `group` among `members`, once there is one.
    private static func leader(of group: RaftGroupID, _ members: [Member]) async -> Member? {
        var found: Member?
        _ = await eventually(seconds: 30) {
            found = members.first { $0.database?.service.host(group)?.softState.role == .leader }
            return found != nil
        }
        return found
    }

    /// A star across two shards of one group is a single write of that group: one Raft entry, no prepare, decision
    /// or finish; every replica shows both locations or neither whenever it is looked at, then both.
    @Test(.timeLimit(.minutes(1))) func aStarAcrossShardsOfOneGroupIsOneEntryShownWhole() async throws {
        try await InProcessCluster.with(router: Self.oneGroup) { (members) async throws in
            #expect(await eventually(seconds: 30) { members.allSatisfy { $0.database?.notReadyReason == nil } })
            let (post, list) = try Self.starPaths()
            for round in 1...5 {
                let value = WriteValue(node: Node(.int(Int64(round))))
                // A starved machine can miss the in-process nodes' 2 s commit timeout: the round is sent again (a
                // set applies the same twice), and the entry count is checked only for a first attempt.
                for attempt in 1...5 {
                    let leader = try #require(await Self.leader(of: RaftGroupID(0), members))
                    let database = try #require(leader.database)
                    let host = try #require(database.service.host(RaftGroupID(0)))
                    let (term, before) = (host.softState.term, host.lastIndex)
                    let outcome: WriteOutcome
                    do {
                        outcome = try await database.coordinator.write(
                            namespace: "default", mutations: [.set(post, value), .set(list, value)], conditions: [],
                            now: 0)
                    } catch is CommitTimeoutError where attempt < 5 {
                        continue
                    }
                    guard case .committed = outcome else {
                        Issue.record("round \(round): \(outcome)")
                        break
                    }
                    if attempt == 1 && host.softState.term == term {
                        #expect(host.lastIndex == before + 1, "round \(round): \(host.lastIndex - before) entries")
                    }
                    break
                }
                let expected = Node(.int(Int64(round)))
                #expect(
                    await eventually(seconds: 30) {
                        members.allSatisfy { member in
                            guard let root = member.database?.view.root("default") else { return false }
                            let (a, b) = (root.node(at: post), root.node(at: list))
                            if (a == expected) != (b == expected) {
                                Issue.record("\(member.id.name) shows half of round \(round)'s star")
                            }
                            return a == expected && b == expected
                        }
                    })
            }
        }
    }

    /// Two groups over eight shards with small snapshots: a node that missed several compactions catches up by
    /// snapshot, and every member restarted from its snapshots and log keeps every acknowledged write, the writes
    /// across groups (two-phase) and within one group (one entry) alike.
    @Test(.timeLimit(.minutes(2))) func snapshotsCatchUpAndRestartsKeepEveryAcknowledgedWrite() async throws {
        let router = ShardRouter(shardCount: 2, shardDepth: 2, hashBuckets: 8)
        let snapshots = ShardSnapshotPolicy(
            entries: 16, bytes: 1 << 30, retentionInterval: .milliseconds(50), transferChunkBytes: 64)
        try await InProcessCluster.with(router: router, snapshots: snapshots, walSegmentBytes: 8 * 1024) {
            (members) async throws in
            let paths = try (0..<8).map { try Path(validating: "/posts/p\($0)/round") }
            func write(rounds: Range<Int>, through writers: [Member]) async {
                for round in rounds {
                    let update = paths.map { Mutation.set($0, WriteValue(node: Node(.int(Int64(round))))) }
                    #expect(await InProcessCluster.write(update, members: writers, retryingUnconfirmed: true))
                    let pair = Array(paths.prefix(2)).map {
                        Mutation.set($0, WriteValue(node: Node(.int(Int64(-round)))))
                    }
                    #expect(await InProcessCluster.write(pair, members: writers, retryingUnconfirmed: true))
                }
            }
            func holds(_ member: Member, round: Int) -> Bool {
                guard let root = member.database?.view.root("default") else { return false }
                return paths.enumerated().allSatisfy { index, path in
                    root.node(at: path) == Node(.int(Int64(index < 2 ? -round : round)))
                }
            }
            await write(rounds: 0..<2, through: members)
            let lagging = members[2]
            #expect(await eventually(seconds: 30) { holds(lagging, round: 1) })
            let before = try (0..<2).map {
                try #require(lagging.database?.service.host(RaftGroupID(UInt32($0)))?.lastIndex)
            }
            await lagging.close()
            let others = Array(members.prefix(2))
            await write(rounds: 2..<30, through: others)
            // Both groups' logs were compacted past what the stopped node holds: it can only catch up by snapshot.
            for group in 0..<2 {
                let cuts = others.compactMap {
                    $0.database?.service.host(RaftGroupID(UInt32(group)))?.snapshotCut.index
                }
                #expect(cuts.allSatisfy { $0 > before[group] }, "group \(group): cuts \(cuts), before \(before)")
            }
            try await lagging.open()
            #expect(await eventually(seconds: 30) { members.allSatisfy { holds($0, round: 29) } })
            for member in members { await member.close() }
            for member in members {
                try await member.open()
                #expect(holds(member, round: 29), "\(member.id.name) restarted without an acknowledged write")
            }
        }
    }

    /// A committed entry of a group that a member cannot read (a newer release's kind) stops that group alone on
    /// every replica with `RaftApplyHalt`: every shard of the group is refused at once with `ShardHaltedError`, the
    /// other group serves, and nothing crashes, before a restart and after it.
    @Test(.timeLimit(.minutes(2))) func anUnreadableEntryHaltsOnlyItsGroupAndEveryShardOfIt() async throws {
        let router = ShardRouter(shardCount: 2, shardDepth: 2, hashBuckets: 8)
        try await InProcessCluster.with(router: router) { (members) async throws in
            let paths = try (0..<32).map { try Path(validating: "/posts/p\($0)/n") }
            let halted = paths.filter { router.shard(namespace: "default", path: $0) == 0 }
            let serving = try #require(paths.first { router.shard(namespace: "default", path: $0) == 1 })
            let buckets = Set(
                halted.compactMap { Self.sixteenGroups.shard(namespace: "default", path: $0).map { $0 % 8 } })
            #expect(buckets.count > 1, "the halted group's paths span several of its shards")
            var unknown: [UInt8] = [ShardLogRecord.version]
            BinaryWriter.append(UInt16(0), to: &unknown)
            BinaryWriter.append(UInt64(1_000_000), to: &unknown)
            unknown.append(0xEE)
            let group = RaftGroupID(0)
            #expect(
                await eventually(seconds: 30) {
                    members.contains { member in
                        guard let host = member.database?.service.host(group), host.softState.role == .leader,
                            case .accepted = host.propose(unknown)
                        else { return false }
                        return true
                    }
                })
            #expect(
                await eventually(seconds: 30) { members.allSatisfy { $0.database?.service.host(group)?.halt != nil } })
            for restart in [false, true] {
                if restart {
                    for member in members { await member.close() }
                    for member in members { try await member.open() }
                }
                for member in members {
                    let database = try #require(member.database)
                    #expect(database.service.host(group)?.halt?.cause == .unreadable)
                    for path in halted.prefix(4) {
                        await #expect(throws: ShardHaltedError.self) {
                            _ = try await database.coordinator.write(
                                namespace: "default", mutations: [.set(path, WriteValue(node: Node(.int(1))))],
                                conditions: [], now: 0)
                        }
                    }
                }
                #expect(try await InProcessCluster.write(restart ? 2 : 1, at: "\(serving)", members: members))
            }
        }
    }
}
