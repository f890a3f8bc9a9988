import Foundation
import HearthCluster
import HearthCore
import HearthStorage
import HearthTestKit
import HearthWire
import Synchronization
import Testing

@testable import HearthDatabase
@testable import HearthReplication
@testable import HearthServer

/// Three nodes in one process whose shards snapshot every 16 entries, whose write-ahead logs roll every 8 KiB and
/// whose snapshots travel in 64-byte chunks: logs are compacted, old segments deleted, a node that missed several
/// compactions catches up by snapshot (and its listeners hear what changed), a restarted node recovers from its
/// snapshots and the log after them (from the older of a shard's two when the newest is damaged, or refuses to start
/// when both are), and a leader that stepped down with uncommitted entries is rebuilt from its latest snapshot.
@Suite(.serialized) struct ReplicatedSnapshotTests {
    typealias Member = InProcessCluster.Member

    static let router = ShardRouter(shardCount: 4, shardDepth: 2)
    static let snapshots = ShardSnapshotPolicy(
        entries: 16, bytes: 1 << 30, retentionInterval: .milliseconds(50), transferChunkBytes: 64)
    static let walSegmentBytes = 8 * 1024
    static let posts = 0..<8

    /// Runs `body` on three in-process nodes with the suite's snapshot policy and segment size.
    private func withCluster(_ body: ([Member]) async throws -> Void) async throws {
        try await InProcessCluster.with(
            router: Self.router, snapshots: Self.snapshots, walSegmentBytes: Self.walSegmentBytes, body)
    }

    /// Hears every committed change at or below `path`.
    final class Recorder: ChangeListener {
        let namespace = "default"
        let path: Path
        private let changes = Mutex<[CommittedChange]>([])

        init(_ path: Path) {
            self.path = path
        }

        func changed(_ change: CommittedChange) {
            self.changes.withLock { $0.append(change) }
        }

        var heard: [CommittedChange] { self.changes.withLock { $0 } }
    }

    /// Writes `round` rounds of a value per post, through `members` (each round also sets every post's `round`
    /// field in one multi-shard update).
    private func write(rounds: Range<Int>, members: [Member]) async throws {
        for round in rounds {
            for post in Self.posts {
                #expect(
                    try await InProcessCluster.write(
                        round * 100 + post, at: "/posts/p\(post)/stars", members: members))
            }
            let update = try Self.posts.map { post in
                Mutation.set(try Path(validating: "/posts/p\(post)/round"), WriteValue(node: Node(.int(Int64(round)))))
            }
            #expect(await InProcessCluster.write(update, members: members, retryingUnconfirmed: true))
        }
    }

    /// What every post holds after `rounds` rounds.
    private static func expected(after rounds: Int) throws -> Node {
        var posts = Node.empty
        for post in Self.posts {
            posts.set(Node(.int(Int64((rounds - 1) * 100 + post))), at: try Path(validating: "/p\(post)/stars"))
            posts.set(Node(.int(Int64(rounds - 1))), at: try Path(validating: "/p\(post)/round"))
        }
        return posts
    }

    private static func posts(_ member: Member) -> Node {
        member.database?.view.root("default").node(at: Fixture.path("posts")) ?? .empty
    }

    /// Per shard, the index of the last entry the member's replica holds.
    private static func lastIndexes(_ member: Member) throws -> [UInt64] {
        let database = try #require(member.database)
        return (0..<4).map { database.service.host(RaftGroupID(UInt32($0)))?.lastIndex ?? 0 }
    }

    @Test(.timeLimit(.minutes(2))) func aNodeThatMissedSeveralCompactionsCatchesUpBySnapshotAndItsListenersHear()
        async throws
    {
        try await self.withCluster { (members) async throws in
            try await self.write(rounds: 0..<1, members: members)
            let lagging = members[2]
            #expect(await eventually(seconds: 30) { Self.posts(lagging) == (try? Self.expected(after: 1)) })
            let before = try Self.lastIndexes(lagging)
            await lagging.close()
            let others = Array(members.prefix(2))
            try await self.write(rounds: 1..<12, members: others)
            // Every shard's log was compacted past what the stopped node holds, so it can only catch up by snapshot.
            // (The cut is at the older of the two snapshots each shard keeps, one snapshot interval behind the newest,
            // so it may pass the stopped node's position by less than an interval.)
            for shard in 0..<4 {
                let group = RaftGroupID(UInt32(shard))
                let cuts = others.compactMap { $0.database?.service.host(group)?.snapshotCut.index }
                #expect(cuts.allSatisfy { $0 > before[shard] }, "shard \(shard): cuts \(cuts), before \(before)")
            }
            try await lagging.open()
            let recorder = Recorder(Fixture.path("posts"))
            let database = try #require(lagging.database)
            let start = database.view.addListener(recorder)
            let expected = try Self.expected(after: 12)
            #expect(await eventually(seconds: 30) { Self.posts(lagging) == expected })
            for shard in 0..<4 {
                #expect(database.log.snapshotIndex(shard: shard) > before[shard], "shard \(shard) came by snapshot")
            }
            // The listener heard every post reach its value, from where it started (its events may trail the view).
            #expect(
                await eventually(seconds: 30) {
                    recorder.heard.last?.newRoot.node(at: Fixture.path("posts")) == expected
                })
            let heard = recorder.heard
            #expect(heard.first?.oldRoot == start)
            for post in Self.posts {
                let path = try Path(validating: "/posts/p\(post)")
                #expect(heard.contains { $0.touches(path) }, "no change touched p\(post)")
            }
        }
    }

    @Test(.timeLimit(.minutes(2))) func aRestartedNodeRecoversFromItsSnapshotsAndTheLogAfterThem() async throws {
        try await self.withCluster { (members) async throws in
            try await self.write(rounds: 0..<8, members: members)
            let expected = try Self.expected(after: 8)
            #expect(await eventually(seconds: 30) { members.allSatisfy { Self.posts($0) == expected } })
            for member in members { await member.close() }
            // Alone (its peers are down), it shows what it had from its own snapshots and log.
            let restarted = members[0]
            try await restarted.open()
            let database = try #require(restarted.database)
            #expect(Self.posts(restarted) == expected)
            for shard in 0..<4 {
                #expect(database.log.snapshotIndex(shard: shard) > 0, "shard \(shard) started from a snapshot")
            }
        }
    }

    /// Flips a byte in the middle of the newest (`which: 1`) or both (`which: 2`) of each shard's stored snapshots
    /// of `member`; returns the files damaged. Every shard must hold two by then.
    private static func damageSnapshots(of member: Member, newest which: Int) throws -> [String] {
        var damaged: [String] = []
        for shard in 0..<4 {
            let directory = member.directory + "/snapshots/shard-\(shard)"
            let files = try FileManager.default.contentsOfDirectory(atPath: directory)
                .filter { $0.hasSuffix(".snap") }.sorted(by: >)
            #expect(files.count == 2, "shard \(shard) keeps \(files)")
            for name in files.prefix(which) {
                let path = directory + "/" + name
                var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
                bytes[bytes.count / 2] ^= 0xFF
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                damaged.append(path)
            }
        }
        return damaged
    }

    /// A member whose newest snapshot of every shard is damaged starts alone from the older one each shard keeps and
    /// the log after it, with every acknowledged write, and keeps the damaged files as `.broken`.
    @Test(.timeLimit(.minutes(2))) func aMemberFallsBackFromADamagedNewestShardSnapshot() async throws {
        try await self.withCluster { (members) async throws in
            try await self.write(rounds: 0..<12, members: members)
            let expected = try Self.expected(after: 12)
            #expect(await eventually(seconds: 30) { members.allSatisfy { Self.posts($0) == expected } })
            for member in members { await member.close() }
            let restarted = members[0]
            let damaged = try Self.damageSnapshots(of: restarted, newest: 1)
            try await restarted.open()
            #expect(Self.posts(restarted) == expected)
            for path in damaged {
                #expect(FileManager.default.fileExists(atPath: path + ".broken"), "\(path) was not kept as .broken")
                #expect(!FileManager.default.fileExists(atPath: path))
            }
        }
    }

    /// A member whose two snapshots of a shard are both damaged, and whose log was cut at the older one, refuses to
    /// start, naming the files and how to bring it back, and leaves them in place.
    @Test(.timeLimit(.minutes(2))) func aMemberWithEveryShardSnapshotDamagedRefusesToStart() async throws {
        try await self.withCluster { (members) async throws in
            try await self.write(rounds: 0..<12, members: members)
            let expected = try Self.expected(after: 12)
            #expect(await eventually(seconds: 30) { members.allSatisfy { Self.posts($0) == expected } })
            for member in members { await member.close() }
            let restarted = members[0]
            let damaged = try Self.damageSnapshots(of: restarted, newest: 2)
            do {
                try await restarted.open()
                Issue.record("a member without a usable snapshot started")
            } catch let error as StorageError {
                #expect(error.code == .damagedSnapshot)
                #expect(error.message.contains("hearth cluster remove"), "\(error.message)")
                #expect(error.message.contains("hearth serve --join"), "\(error.message)")
                let named = damaged.filter { error.message.contains($0) }
                #expect(named.count == 2, "\(error.message)")
            }
            for path in damaged { #expect(FileManager.default.fileExists(atPath: path)) }
        }
    }

    @Test(.timeLimit(.minutes(2))) func theWriteAheadLogDropsTheSegmentsEveryGroupsSnapshotCovers() async throws {
        try await self.withCluster { (members) async throws in
            try await self.write(rounds: 0..<8, members: members)
            for member in members {
                let database = try #require(member.database)
                #expect(
                    await eventually(seconds: 30) { database.wal.firstLSN > 1 },
                    "\(member.id.name) still holds its first segment")
                let segments = try FileManager.default.contentsOfDirectory(atPath: member.directory)
                    .filter { $0.hasPrefix("wal-") }
                #expect(segments.count < 8, "\(member.id.name) keeps \(segments.count) segments")
            }
            // Restarting from a truncated log works (once the node has applied every write, which it then shows
            // from its own snapshots and log alone).
            let expected = try Self.expected(after: 8)
            #expect(await eventually(seconds: 30) { Self.posts(members[1]) == expected })
            await members[1].close()
            try await members[1].open()
            #expect(Self.posts(members[1]) == expected)
        }
    }

    /// While one shard takes every write, the idle ones, whose logs reach back to their older snapshots, write those
    /// entries again, so the write-ahead log comes down to its newest segments instead of keeping old ones forever.
    @Test(.timeLimit(.minutes(2))) func idleShardsDoNotPinOldSegments() async throws {
        try await self.withCluster { (members) async throws in
            try await self.write(rounds: 0..<12, members: members)
            for value in 0..<300 {
                #expect(
                    try await InProcessCluster.write(
                        value, at: "/posts/p0/stars", members: members))
            }
            let database = try #require(members[0].database)
            func segments() -> Int {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: members[0].directory)) ?? []
                return names.filter { $0.hasPrefix("wal-") }.count
            }
            #expect(
                await eventually(seconds: 30) { segments() <= 2 },
                "\(segments()) segments, the log starting at \(database.wal.firstLSN)")
            for shard in 0..<4 {
                let host = try #require(database.service.host(RaftGroupID(UInt32(shard))))
                // The log is cut at the older snapshot it keeps, or at the newest where a snapshot the leader sent
                // replaced the log (a member that fell behind while the others compacted): never past it.
                #expect(
                    host.snapshotCut.index <= database.log.snapshotIndex(shard: shard),
                    "shard \(shard)'s log is cut past its newest snapshot")
            }
        }
    }

    @Test(.timeLimit(.minutes(2))) func aLeaderThatSteppedDownAfterCompactionIsRebuiltFromItsSnapshot() async throws {
        try await self.withCluster { (members) async throws in
            try await self.write(rounds: 0..<4, members: members)
            let target = try Path(validating: "/posts/p0/stars")
            let shard = try #require(Self.router.shards(namespace: "default", mutation: target).first)
            let leader = try await InProcessCluster.leader(of: shard, among: members)
            let others = members.filter { $0 !== leader }
            let database = try #require(leader.database)
            // Snapshots are taken off the commit path, a moment after the writes that make one due.
            #expect(
                await eventually(seconds: 30) { database.log.snapshotIndex(shard: shard) > 0 },
                "the leader compacted the shard before stepping down")
            // Cut off, the leader applies a write it can never commit.
            leader.transport.partition(from: Set(others.map(\.id)))
            for other in others { other.transport.partition(from: [leader.id]) }
            let lost = Task {
                try await database.coordinator.write(
                    namespace: "default", mutations: [.set(target, WriteValue(node: Node(.int(-1))))], conditions: [],
                    now: 0)
            }
            #expect(await eventually(seconds: 30) { others.contains { $0.acceptsAppends(shard: shard) } })
            #expect(
                try await InProcessCluster.write(
                    1_000, at: "/posts/p0/stars", members: others))
            leader.transport.heal()
            for other in others { other.transport.heal() }
            await #expect(throws: (any Error).self) { try await lost.value }
            #expect(
                await eventually(seconds: 30) {
                    members.allSatisfy { (try? $0.value("/posts/p0/stars")) == Node(.int(1_000)) }
                })
            // The old leader's machine is the committed one again: the same as every replica's (once each has
            // applied the same entries: a bookkeeping entry committed last may still be on its way to one).
            var machines: [ShardStateMachine] = []
            for _ in 0..<3000 {
                machines = []
                for member in members {
                    let client = try #require(member.database?.coordinator.shards as? RoutedShardClient)
                    machines.append(await client.local.actors[shard].state)
                }
                if Set(machines.map(\.lastIndex)).count == 1 { break }
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(Set(machines.map(\.lastIndex)).count == 1)
            #expect(machines.allSatisfy { $0.trees == machines[0].trees })
        }
    }
}
