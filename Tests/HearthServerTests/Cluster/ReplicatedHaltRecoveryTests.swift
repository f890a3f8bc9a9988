import HearthCluster
import HearthCore
import HearthTestKit
import HearthWire
import Synchronization
import Testing

@testable import HearthDatabase
@testable import HearthReplication
@testable import HearthServer

/// A member whose log holds a committed entry it cannot decode restarts as it ran: that shard's replica is halted at
/// the entry, and the node and its other shards serve.
@Suite(.serialized) struct ReplicatedHaltRecoveryTests {
    static let router = ShardRouter(shardCount: 4, shardDepth: 2)

    /// A path of `shard`, or of any other shard when `other` is set.
    private static func path(shard: Int, other: Bool = false) throws -> String {
        for post in 0..<64 {
            let path = "/posts/p\(post)"
            let owner = Self.router.shard(namespace: "default", path: try Path(validating: path))
            if (owner == shard) != other { return path }
        }
        throw TestClientError(description: "no path found for shard \(shard)")
    }

    /// Committed bytes no release reads halt the group at runtime; after every member restarts, each starts with the
    /// group halted at that entry (what came before it recovered), and a write to another shard still commits.
    @Test(.timeLimit(.minutes(2))) func aRestartWithAnUndecodableCommittedEntryHaltsOnlyItsGroup() async throws {
        try await InProcessCluster.with(router: Self.router) { (members) async throws in
            let group = RaftGroupID(0)
            let before = try Self.path(shard: 0)
            #expect(try await InProcessCluster.write(1, at: before + "/stars", members: members))
            var index: UInt64 = 0
            #expect(
                await eventually(seconds: 30) {
                    for member in members {
                        guard let host = member.database?.service.host(group), host.softState.role == .leader,
                            case .accepted(let accepted, _) = host.propose([0xEE, 0x01, 0x02])
                        else { continue }
                        index = accepted
                        return true
                    }
                    return false
                })
            #expect(
                await eventually(seconds: 30) {
                    members.allSatisfy { $0.database?.service.host(group)?.halt?.index == index }
                })
            for member in members { await member.close() }
            for member in members { try await member.open() }
            for member in members {
                let halt = try #require(member.database?.service.host(group)?.halt)
                #expect(halt.index == index && halt.group == group)
                #expect(try member.value(before + "/stars") == Node(.int(1)), "entries before the halt recovered")
            }
            let other = try Self.path(shard: 0, other: true)
            #expect(try await InProcessCluster.write(2, at: other + "/stars", members: members))
            #expect(
                await eventually(seconds: 30) {
                    members.allSatisfy { (try? $0.value(other + "/stars")) == Node(.int(2)) }
                })
        }
    }

    /// A well-formed record of `shard` whose entry is of a kind no release knows (as a newer release's would be).
    private static func unknownKind(shard: Int) -> [UInt8] {
        var bytes: [UInt8] = [ShardLogRecord.version]
        BinaryWriter.append(UInt16(shard), to: &bytes)
        BinaryWriter.append(UInt64(1_000_000), to: &bytes)
        bytes.append(0xEE)
        return bytes
    }

    /// A committed entry of an unknown kind stops its group on every replica, with the entry's index, term and the
    /// decoder's reason; every node then refuses that shard's reads and writes at once with `ShardHaltedError` (a
    /// 503 / `unavailable`, counted), and the other shards keep serving. Nothing crashes.
    @Test(.timeLimit(.minutes(2))) func anEntryOfAnUnknownKindStopsOnlyItsShardAndItsReadsAndWritesAreRefused()
        async throws
    {
        try await InProcessCluster.with(router: Self.router) { (members) async throws in
            let group = RaftGroupID(0)
            let halted = try Self.path(shard: 0)
            let accepted = try await Self.proposeUntilHalted(Self.unknownKind(shard: 0), group: group, members: members)
            for member in members {
                let database = try #require(member.database)
                let halt = try #require(database.service.host(group)?.halt)
                #expect(halt.term == accepted.term)
                #expect(halt.reason.contains("unknown shard entry kind 238"), "\(halt.reason)")
                #expect(halt.cause == .unreadable && halt.description.contains("upgrade this node"))
                let started = ContinuousClock.now
                await #expect(throws: ShardHaltedError.self) {
                    _ = try await database.coordinator.write(
                        namespace: "default",
                        mutations: [.set(try Path(validating: halted + "/n"), WriteValue(node: Node(.int(1))))],
                        conditions: [], now: 0)
                }
                await #expect(throws: ShardHaltedError.self) {
                    try await database.readBarrier(namespace: "default", path: try Path(validating: halted))
                }
                #expect(
                    ContinuousClock.now - started < .milliseconds(1900),
                    "refused at once, not after a read or leader wait")
                #expect(database.log.haltedRefusals.load(ordering: .relaxed) >= 2)
            }
            let other = try Self.path(shard: 0, other: true)
            #expect(try await InProcessCluster.write(3, at: other + "/stars", members: members))
            #expect(
                await eventually(seconds: 30) {
                    members.allSatisfy { (try? $0.value(other + "/stars")) == Node(.int(3)) }
                })
        }
    }

    /// Proposes `command` to `group` through its leader, and waits until every member's replica of the group has
    /// halted at the entry; returns the entry's index and term.
    private static func proposeUntilHalted(_ command: [UInt8], group: RaftGroupID, members: [InProcessCluster.Member])
        async throws -> (index: UInt64, term: UInt64)
    {
        var accepted: (index: UInt64, term: UInt64) = (0, 0)
        let proposed = await eventually(seconds: 30) {
            for member in members {
                guard let host = member.database?.service.host(group), host.softState.role == .leader,
                    case .accepted(let index, let term) = host.propose(command)
                else { continue }
                accepted = (index, term)
                return true
            }
            return false
        }
        try #require(proposed, "no leader took the entry")
        #expect(
            await eventually(seconds: 30) {
                members.allSatisfy { $0.database?.service.host(group)?.halt?.index == accepted.index }
            })
        return accepted
    }

    /// A well-formed write entry of `shard` whose index in the shard's own log skips far past the shard's last one,
    /// as a damaged log (or a bug that wrote it) would hold.
    private static func skippingAhead(shard: Int) throws -> [UInt8] {
        let write = ShardWrite(
            namespace: "default", mutations: [try Fixture.set(try Self.path(shard: shard) + "/n", "1")], now: 1)
        return ShardLogRecord.encode(.write(write), shard: shard, index: 1_000_000)
    }

    /// A committed entry whose shard index does not follow the shard's last one stops its group on every replica,
    /// naming the entry and the gap (`ShardEntryGapError`), instead of crashing every node; the shard's writes are
    /// then refused with `ShardHaltedError`, every member restarts with the group halted there (recovery meets the
    /// same gap), and the other shards keep serving.
    @Test(.timeLimit(.minutes(2))) func anEntryWhoseShardIndexSkipsAheadStopsOnlyItsShard() async throws {
        try await InProcessCluster.with(router: Self.router) { (members) async throws in
            let group = RaftGroupID(0)
            let halted = try Self.path(shard: 0)
            #expect(try await InProcessCluster.write(1, at: halted + "/stars", members: members))
            let command = try Self.skippingAhead(shard: 0)
            let accepted = try await Self.proposeUntilHalted(command, group: group, members: members)
            for member in members {
                let database = try #require(member.database)
                let halt = try #require(database.service.host(group)?.halt)
                #expect(halt.term == accepted.term)
                #expect(halt.reason.contains("entry 1000000") && halt.reason.contains("entries are missing"))
                #expect(halt.cause == .damagedLog && halt.description.contains("replace this member"))
                let refusal = ShardHaltedError(shard: 0, halt: halt).description
                #expect(refusal.contains("replace this member") && !refusal.contains("upgrade"), "\(refusal)")
                #expect(database.notReadyReason(allowingLag: 0)?.contains("replace this member") == true)
                // Waiting does not end a halt: a restarted member's catch-up hold does not count it.
                #expect(
                    await eventually(seconds: 30) {
                        database.notReadyReason(allowingLag: 0, countingStops: false) == nil
                    })
                #expect(try member.value(halted + "/stars") == Node(.int(1)), "what came before the entry stays")
                await #expect(throws: ShardHaltedError.self) {
                    _ = try await database.coordinator.write(
                        namespace: "default",
                        mutations: [.set(try Path(validating: halted + "/n"), WriteValue(node: Node(.int(1))))],
                        conditions: [], now: 0)
                }
            }
            for member in members { await member.close() }
            for member in members { try await member.open() }
            for member in members {
                let halt = try #require(member.database?.service.host(group)?.halt)
                #expect(halt.index == accepted.index && halt.reason.contains("entries are missing"), "after a restart")
                #expect(halt.cause == .damagedLog, "a restart's recovery names the damage too")
            }
            let other = try Self.path(shard: 0, other: true)
            #expect(try await InProcessCluster.write(4, at: other + "/stars", members: members))
            #expect(
                await eventually(seconds: 30) {
                    members.allSatisfy { (try? $0.value(other + "/stars")) == Node(.int(4)) }
                })
        }
    }

    /// A snapshot from the shard's leader that holds the shard through an earlier entry than this replica already
    /// applied (a damaged log or a buggy leader) halts the group as a damaged log, naming both indexes, before
    /// anything is stored or restored: the replica's data stays as it was, and the node does not crash.
    @Test(.timeLimit(.minutes(2))) func aSnapshotBehindWhatTheReplicaAppliedHaltsTheGroupAndChangesNothing()
        async throws
    {
        try await InProcessCluster.with(router: Self.router) { (members) async throws in
            let path = try Self.path(shard: 0)
            for stars in 1...3 {
                #expect(try await InProcessCluster.write(stars, at: path + "/stars", members: members))
            }
            let member = try #require(members.first)
            let database = try #require(member.database)
            #expect(await eventually(seconds: 30) { database.view.receivedIndex(shard: 0) >= 3 })
            let behind = ShardSnapshotPayload(
                snapshot: ShardSnapshot(machine: ShardStateMachine(shard: 0, spineDepth: 2), decisions: [:], cut: [:]),
                terms: CommittedTerms())
            let snapshot = RaftSnapshot(
                metadata: RaftSnapshotMetadata(index: 1_000, term: 99, membership: RaftMembership(voters: ["n1"])),
                data: behind.encoded())
            let touched = Mutex(false)
            let applier = RaftShardLog.Applier(
                apply: { _, _ in
                    touched.withLock { $0 = true }
                    return ([], nil)
                },
                rebuild: { _, _, _ in touched.withLock { $0 = true } },
                restore: { _ in touched.withLock { $0 = true } })
            do {
                try await database.log.install(shard: 0, snapshot, restoring: applier)
                Issue.record("a snapshot behind the replica was installed")
            } catch let halt as RaftApplyHalt {
                #expect(halt.cause == .damagedLog && halt.index == 1_000)
                #expect(halt.reason.contains("through its entry 0") && halt.reason.contains("behind entry"))
            }
            #expect(!touched.withLock { $0 }, "nothing restored")
            #expect(try member.value(path + "/stars") == Node(.int(3)), "the replica's data is as it was")
        }
    }
}
