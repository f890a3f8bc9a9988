import Foundation
import HearthCluster
import HearthCore
import HearthStorage
import HearthTestKit
import HearthWire
import Testing

@testable import HearthServer

/// A shard's snapshot as the cluster stores and ships it: the payload round-trips, each shard keeps only its latest
/// file, a damaged file is refused, and a node restarts a shard from its snapshot and the committed entries after
/// it, even when it stopped before its log recorded that snapshot.
@Suite struct ShardSnapshotStoreTests {
    private static let router = ShardRouter(shardCount: 2, shardDepth: 2)

    private static func payload(shard: Int, index: UInt64, stars: Int64) -> ShardSnapshotPayload {
        var machine = ShardStateMachine(shard: shard, spineDepth: 2)
        for entryIndex in 1...index {
            let value = WriteValue(node: Node(.int(stars + Int64(entryIndex))))
            let write = ShardWrite(namespace: "default", mutations: [.set(Fixture.path("p/s\(shard)"), value)], now: 0)
            _ = machine.apply(.write(write), at: entryIndex)
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
        let payload = Self.payload(shard: 1, index: 4, stars: 10)
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

    @Test func eachShardKeepsItsLatestSnapshotOnly() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try ShardSnapshotStore(directory: directory.path, shardCount: 2)
        #expect(try store.latest(shard: 0) == nil)
        let older = Self.raftSnapshot(Self.payload(shard: 0, index: 2, stars: 0), at: 5)
        let newer = Self.raftSnapshot(Self.payload(shard: 0, index: 3, stars: 0), at: 9)
        try store.write(older, shard: 0)
        try store.write(newer, shard: 0)
        #expect(try store.latest(shard: 0) == newer)
        #expect(try store.latestIndex(shard: 0) == 9)
        #expect(try store.latest(shard: 1) == nil)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.child("snapshots/shard-0"))
        #expect(files == ["snapshot-00000000000000000009.snap"])
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

    /// The node stopped after storing a snapshot at Raft index 6 and before its log recorded it: the shard starts
    /// from the snapshot, applies the committed entries after it, and its group's log starts there too.
    @Test func recoveryStartsFromTheSnapshotAndTheCommittedEntriesAfterIt() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try ShardSnapshotStore(directory: directory.path, shardCount: 2)
        // Shard entries 1...4 sit at Raft indexes 3...6 (after two no-ops); entries 5 and 6 at 7 and 8.
        let payload = Self.payload(shard: 0, index: 4, stars: 0)
        try store.write(Self.raftSnapshot(payload, at: 6), shard: 0)
        var entries: [RaftEntry] = [
            RaftEntry(index: 1, term: 1, payload: .noop), RaftEntry(index: 2, term: 2, payload: .noop),
        ]
        for shardIndex in UInt64(1)...6 {
            let value = WriteValue(node: Node(.int(Int64(shardIndex))))
            let write = ShardWrite(namespace: "default", mutations: [.set(Fixture.path("p/s0"), value)], now: 0)
            let command = ShardLogRecord.encode(.write(write), shard: 0, index: shardIndex)
            entries.append(RaftEntry(index: shardIndex + 2, term: 2, payload: .command(command)))
        }
        let group = RaftGroupID(0)
        var recovered = ReplicationService.Recovered(
            states: [
                group: RaftPersistentState(
                    hardState: RaftHardState(term: 2, votedFor: "n1", commit: 7),
                    snapshot: RaftSnapshotMetadata(index: 0, term: 0, membership: RaftMembership(voters: ["n1"])),
                    entries: entries)
            ],
            retention: RaftLogRetention())
        let shard = try await ReplicatedDatabase.recover(
            shard: 0, router: Self.router, store: store, recovered: &recovered)
        #expect(shard.machine.lastIndex == 5, "the snapshot's 4 entries, then the committed entry at Raft index 7")
        #expect(shard.machine.node(namespace: "default", at: Fixture.path("p/s0")) == Node(.int(5)))
        #expect(shard.applied.map(\.index) == [5])
        #expect(shard.log.delivered == 7)
        #expect(shard.log.snapshotIndex == 6)
        #expect(shard.log.terms.term(at: 3) == 2, "the snapshot's terms")
        #expect(shard.unrecorded?.index == 6)
        let state = try #require(recovered[group])
        #expect(state.snapshot.index == 6)
        #expect(state.entries.map(\.index) == [7, 8], "the log starts after the snapshot, as Raft installs one")
        #expect(
            try await ReplicatedDatabase.recover(shard: 1, router: Self.router, store: store, recovered: &recovered)
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
            try await ReplicatedDatabase.recover(shard: 1, router: Self.router, store: store, recovered: &recovered)
        }
    }
}
