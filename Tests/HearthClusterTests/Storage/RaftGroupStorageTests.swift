import HearthTestKit
import Testing

@testable import HearthCluster

/// A Raft group's Readies through the node's log records and back: what a restarted replica starts from is what
/// it persisted, whatever prefix of its last batch a crash kept.
@Suite struct RaftGroupStorageTests {
    static let group = RaftGroupID(5)

    private func restore(_ records: [RaftLogRecord]) throws -> RaftPersistentState {
        var replay = RaftLogReplay()
        for record in records { try replay.apply(try RaftLogRecord(decoding: record.encoded())) }
        let groups = try replay.finish()
        return try RaftGroupStorage.persistentState(try #require(groups[5]), group: Self.group)
    }

    @Test func aSingleVoterGroupRestartsWithWhatItPersisted() throws {
        let founding = RaftPersistentState.bootstrap(voters: ["n1"])
        var node = try RaftNode(
            id: "n1", group: Self.group, configuration: try RaftConfiguration(), restoring: founding, seed: 1)
        var records = [RaftGroupStorage.snapshotRecord(founding.snapshot, group: Self.group)]
        func drain() {
            while let ready = node.ready() {
                records += RaftGroupStorage.records(for: ready, group: Self.group)
                node.advance(ready)
            }
        }
        for _ in 0..<30 { node.tick() }
        drain()
        #expect(node.role == .leader)
        for n in 0..<5 {
            guard case .accepted = node.propose([UInt8(n)]) else {
                Issue.record("the single voter did not accept a proposal")
                return
            }
            drain()
        }
        let restored = try self.restore(records)
        #expect(restored.hardState == node.hardState)
        #expect(restored.snapshot == founding.snapshot)
        #expect(restored.entries.map(\.index) == Array(1...6))
        #expect(
            restored.entries.compactMap { if case .command(let data) = $0.payload { data } else { nil } }
                == (0..<5).map { [UInt8($0)] })
        let restarted = try RaftNode(
            id: "n1", group: Self.group, configuration: try RaftConfiguration(), restoring: restored, seed: 2)
        #expect(restarted.log.lastIndex == 6)
        #expect(restarted.hardState == node.hardState)
        // A crash keeps some prefix of the records: every prefix restores, never committing past its entries.
        for kept in 1...records.count {
            let state = try self.restore(Array(records.prefix(kept)))
            #expect(state.hardState.commit <= state.snapshot.index + UInt64(state.entries.count), "prefix \(kept)")
            _ = try RaftNode(
                id: "n1", group: Self.group, configuration: try RaftConfiguration(), restoring: state, seed: 3)
        }
    }

    @Test func recordsOfOneReadyGoSnapshotThenEntriesThenHardState() {
        let ready = RaftReady(
            softState: nil, hardState: RaftHardState(term: 3, votedFor: "n2", commit: 7),
            snapshot: RaftSnapshot(
                metadata: RaftSnapshotMetadata(index: 5, term: 2, membership: RaftMembership(voters: ["n1", "n2"])),
                data: [1]),
            entries: [
                RaftEntry(index: 6, term: 3, payload: .noop), RaftEntry(index: 7, term: 3, payload: .command([9])),
            ],
            messages: [], committedEntries: [], readStates: [], snapshotRequests: [])
        let kinds = RaftGroupStorage.records(for: ready, group: Self.group).map { record -> String in
            switch record {
            case .snapshot: "snapshot"
            case .entries(_, let first, let entries): "entries \(first) x\(entries.count)"
            case .hardState: "hardState"
            }
        }
        #expect(kinds == ["snapshot", "entries 6 x2", "hardState"])
    }

    @Test func aGroupWithoutAFoundingRecordIsRefused() throws {
        var replay = RaftLogReplay()
        try replay.apply(.hardState(group: 5, bytes: []))
        let groups = try replay.finish()
        #expect(throws: RaftLogReplayError.self) {
            try RaftGroupStorage.persistentState(try #require(groups[5]), group: Self.group)
        }
    }
}
