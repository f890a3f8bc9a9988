import Foundation
import HearthCluster
import HearthCore
import HearthStorage
import HearthSystem
import HearthTestKit
import HearthWire
import Testing

@testable import HearthDatabase
@testable import HearthReplication
@testable import HearthServer

/// A shard's snapshot as the cluster stores and ships it: the payload round-trips, each shard keeps its two newest
/// files, a damaged file is refused, and a node restarts a shard from its snapshot and the committed entries after
/// it, even when it stopped before its log recorded that snapshot, and from the older snapshot when the newest is
/// damaged.
@Suite struct ShardSnapshotStoreTests {
    private static let router = ShardRouter(shardCount: 2, shardDepth: 2)
    private static let quiet = Log(level: .critical)

    private static func payload(shard: Int, index: UInt64, stars: Int64) throws -> ShardSnapshotPayload {
        var machine = ShardStateMachine(shard: shard, spineDepth: 2)
        for entryIndex in 1...index {
            let value = WriteValue(node: Node(.int(stars + Int64(entryIndex))))
            let write = ShardWrite(namespace: "default", mutations: [.set(Fixture.path("p/s\(shard)"), value)], now: 0)
            _ = try machine.apply(.write(write), at: entryIndex)
        }
        var terms = CommittedTerms()
        for raftIndex in 1...(index + 2) { terms.record(index: raftIndex, term: 2) }
        return ShardSnapshotPayload(
            snapshot: ShardSnapshot(
                machine: machine, decisions: [TransactionID(rawValue: 7): true], cut: [1 - shard: 3]),
            terms: terms)
    }

    private static func raftSnapshot(_ payload: ShardSnapshotPayload, at index: UInt64) -> RaftSnapshot {
        RaftSnapshot(
            metadata: RaftSnapshotMetadata(index: index, term: 2, membership: RaftMembership(voters: ["n1"])),
            data: payload.encoded())
    }

    @Test func aPayloadRoundTripsWithItsTermsAndCut() async throws {
        let payload = try Self.payload(shard: 1, index: 4, stars: 10)
        let decoded = try await ShardSnapshotPayload.decode(payload.encoded(), shard: 1, spineDepth: 2)
        #expect(decoded.terms == payload.terms)
        #expect(decoded.snapshot.cut == [0: 3])
        #expect(decoded.snapshot.machine.lastIndex == 4)
        #expect(decoded.snapshot.machine.trees == payload.snapshot.machine.trees)
        #expect(decoded.snapshot.machine.decisions == [TransactionID(rawValue: 7): true], "the anchor's decisions")
        await #expect(throws: CommitRecordError.self) {
            try await ShardSnapshotPayload.decode(payload.encoded(), shard: 0, spineDepth: 2)
        }
        await #expect(throws: CommitRecordError.self) {
            try await ShardSnapshotPayload.decode([9] + payload.encoded().dropFirst(), shard: 1, spineDepth: 2)
        }
    }

    /// Each shard keeps its two newest snapshots, and each write says the older one's index (where the log may be
    /// cut).
    @Test func eachShardKeepsItsTwoNewestSnapshots() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try ShardSnapshotStore(directory: directory.path, shardCount: 2)
        #expect(try store.latest(shard: 0) == nil)
        let oldest = try Self.raftSnapshot(Self.payload(shard: 0, index: 1, stars: 0), at: 3)
        let older = try Self.raftSnapshot(Self.payload(shard: 0, index: 2, stars: 0), at: 5)
        let newer = try Self.raftSnapshot(Self.payload(shard: 0, index: 3, stars: 0), at: 9)
        #expect(try store.write(oldest, shard: 0) == 3, "the only one")
        #expect(try store.write(older, shard: 0) == 3)
        #expect(try store.write(newer, shard: 0) == 5)
        #expect(try store.latest(shard: 0) == newer)
        #expect(try store.latestIndex(shard: 0) == 9)
        #expect(try store.latest(shard: 1) == nil)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.child("snapshots/shard-0")).sorted()
        #expect(files == ["snapshot-00000000000000000005.snap", "snapshot-00000000000000000009.snap"])
    }

    @Test func aDamagedSnapshotIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try ShardSnapshotStore(directory: directory.path, shardCount: 2)
        try store.write(Self.raftSnapshot(Self.payload(shard: 1, index: 2, stars: 0), at: 4), shard: 1)
        let name = "snapshots/shard-1/snapshot-00000000000000000004.snap"
        var bytes = try directory.contents(name)
        bytes[40] ^= 0xFF
        try directory.replace(name, with: bytes)
        #expect(throws: StorageError.self) { try store.latest(shard: 1) }
    }

    /// A shard's log: two no-ops, then shard entries 1...6 at Raft indexes 3...8 (entry 6's term is `term6`), cut
    /// after `cut` and committed through `commit`.
    private static func recovered(
        cut: UInt64 = 0, commit: UInt64 = 7, term6: UInt64 = 2
    ) -> ReplicationService.Recovered {
        var entries: [RaftEntry] = [
            RaftEntry(index: 1, term: 1, payload: .noop), RaftEntry(index: 2, term: 2, payload: .noop),
        ]
        for shardIndex in UInt64(1)...6 {
            let value = WriteValue(node: Node(.int(Int64(shardIndex))))
            let write = ShardWrite(namespace: "default", mutations: [.set(Fixture.path("p/s0"), value)], now: 0)
            let command = ShardLogRecord.encode(.write(write), shard: 0, index: shardIndex)
            let term: UInt64 = shardIndex + 2 == 6 ? term6 : 2
            entries.append(RaftEntry(index: shardIndex + 2, term: term, payload: .command(command)))
        }
        let membership = RaftMembership(voters: ["n1"])
        return ReplicationService.Recovered(
            states: [
                RaftGroupID(0): RaftPersistentState(
                    hardState: RaftHardState(term: 2, votedFor: "n1", commit: commit),
                    snapshot: RaftSnapshotMetadata(index: cut, term: cut > 0 ? 2 : 0, membership: membership),
                    entries: entries.filter { $0.index > cut })
            ],
            retention: RaftLogRetention())
    }

    /// A stored snapshot at Raft index 6 whose entry the log still holds (the log is cut only at the older snapshot
    /// kept): the shard starts from the snapshot and applies the committed entries after it, and its group's log
    /// keeps reaching back to its cut.
    @Test func recoveryStartsFromTheSnapshotAndTheCommittedEntriesAfterIt() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try ShardSnapshotStore(directory: directory.path, shardCount: 2)
        // Shard entries 1...4 sit at Raft indexes 3...6 (after two no-ops); entries 5 and 6 at 7 and 8.
        let payload = try Self.payload(shard: 0, index: 4, stars: 0)
        try store.write(Self.raftSnapshot(payload, at: 6), shard: 0)
        let group = RaftGroupID(0)
        var recovered = Self.recovered()
        let shard = try await ReplicatedDatabase.recover(
            shard: 0, router: Self.router, store: store, recovered: &recovered, log: Self.quiet)
        #expect(shard.machine.lastIndex == 5, "the snapshot's 4 entries, then the committed entry at Raft index 7")
        #expect(shard.machine.node(namespace: "default", at: Fixture.path("p/s0")) == Node(.int(5)))
        #expect(shard.applied.map(\.index) == [5])
        #expect(shard.log.delivered == 7)
        #expect(shard.log.snapshotIndex == 6)
        #expect(shard.log.terms.term(at: 3) == 2, "the snapshot's terms")
        #expect(shard.unrecorded == nil)
        let state = try #require(recovered[group])
        #expect(state.snapshot.index == 0)
        #expect(state.entries.map(\.index) == Array(1...8), "the log still reaches back to its cut")

        // An installed snapshot whose entry the log does not hold (another term at 6): the log starts after it, as
        // Raft installs one, and the marker is written once the group runs.
        var installed = Self.recovered(term6: 1)
        let moved = try await ReplicatedDatabase.recover(
            shard: 0, router: Self.router, store: store, recovered: &installed, log: Self.quiet)
        #expect(moved.unrecorded?.index == 6)
        #expect(moved.applied.isEmpty)
        #expect(installed[group]?.snapshot.index == 6)
        #expect(installed[group]?.entries.isEmpty == true)
        #expect(
            try await ReplicatedDatabase.recover(
                shard: 1, router: Self.router, store: store, recovered: &recovered, log: Self.quiet
            )
            .machine.lastIndex == 0)
    }

    @Test func recoveryRefusesALogThatStartsAfterEveryStoredSnapshot() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try ShardSnapshotStore(directory: directory.path, shardCount: 2)
        var recovered = ReplicationService.Recovered(
            states: [
                RaftGroupID(1): RaftPersistentState(
                    hardState: RaftHardState(term: 2, commit: 9),
                    snapshot: RaftSnapshotMetadata(index: 9, term: 2, membership: RaftMembership(voters: ["n1"])),
                    entries: [])
            ],
            retention: RaftLogRetention())
        await #expect(throws: CommitRecordError.self) {
            try await ReplicatedDatabase.recover(
                shard: 1, router: Self.router, store: store, recovered: &recovered, log: Self.quiet)
        }
    }

    /// Stores snapshots of shard 0 at Raft indexes 4 (shard entries 1, 2) and 6 (entries 1...4), damages the newest
    /// `damaged` of them, and returns their paths, newest first.
    private static func storeTwo(in directory: TemporaryDirectory, damaging damaged: Int) throws -> [String] {
        let store = try ShardSnapshotStore(directory: directory.path, shardCount: 2)
        try store.write(Self.raftSnapshot(Self.payload(shard: 0, index: 2, stars: 0), at: 4), shard: 0)
        try store.write(Self.raftSnapshot(Self.payload(shard: 0, index: 4, stars: 0), at: 6), shard: 0)
        let names = [
            "snapshots/shard-0/snapshot-00000000000000000006.snap",
            "snapshots/shard-0/snapshot-00000000000000000004.snap",
        ]
        for name in names.prefix(damaged) {
            var bytes = try directory.contents(name)
            bytes[bytes.count / 2] ^= 0xFF
            try directory.replace(name, with: bytes)
        }
        return names.map { directory.child($0) }
    }

    /// A damaged newest snapshot is renamed `.broken` and the shard starts from the older one and the committed
    /// entries after it, which the log (cut at the older one) holds.
    @Test func aDamagedNewestSnapshotFallsBackToTheOlderOne() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let paths = try Self.storeTwo(in: directory, damaging: 1)
        let store = try ShardSnapshotStore(directory: directory.path, shardCount: 2)
        var recovered = Self.recovered(cut: 4)
        let shard = try await ReplicatedDatabase.recover(
            shard: 0, router: Self.router, store: store, recovered: &recovered, log: Self.quiet)
        #expect(shard.snapshot?.index == 4)
        #expect(shard.applied.map(\.index) == [3, 4, 5])
        #expect(shard.machine.node(namespace: "default", at: Fixture.path("p/s0")) == Node(.int(5)))
        #expect(FileManager.default.fileExists(atPath: paths[0] + ".broken"))
        #expect(try store.latestIndex(shard: 0) == 4)
    }

    /// Both snapshots damaged and the log cut at the older: recovery refuses, naming both files and how to bring the
    /// member back, and leaves them in place; with the log reaching back to its start, the shard starts from it.
    @Test func bothSnapshotsDamagedRefusesUnlessTheLogReachesItsStart() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let paths = try Self.storeTwo(in: directory, damaging: 2)
        let store = try ShardSnapshotStore(directory: directory.path, shardCount: 2)
        var cut = Self.recovered(cut: 4)
        do {
            _ = try await ReplicatedDatabase.recover(
                shard: 0, router: Self.router, store: store, recovered: &cut, log: Self.quiet)
            Issue.record("recovered without a usable snapshot")
        } catch let error as StorageError {
            #expect(error.code == .damagedSnapshot)
            #expect(paths.allSatisfy { error.message.contains($0) }, "\(error.message)")
            #expect(error.message.contains("starts after entry 4"), "\(error.message)")
            #expect(error.message.contains("hearth cluster remove"), "\(error.message)")
        }
        #expect(paths.allSatisfy { FileManager.default.fileExists(atPath: $0) })
        var whole = Self.recovered()
        let shard = try await ReplicatedDatabase.recover(
            shard: 0, router: Self.router, store: store, recovered: &whole, log: Self.quiet)
        #expect(shard.snapshot == nil)
        #expect(shard.applied.map(\.index) == [1, 2, 3, 4, 5])
        #expect(paths.allSatisfy { FileManager.default.fileExists(atPath: $0 + ".broken") })
    }
}
