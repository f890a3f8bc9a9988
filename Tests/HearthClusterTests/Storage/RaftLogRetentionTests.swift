import HearthCluster
import HearthTestKit
import Testing

@Suite struct RaftLogRetentionTests {
    @Test func oldestNeededRecordHoldsBackTruncation() {
        var retention = RaftLogRetention()
        #expect(retention.truncatableThrough == 0)
        retention.recorded(.hardState(group: 1, bytes: []), at: 1)
        retention.recorded(.entries(group: 1, firstIndex: 1, entries: [[1], [2]]), at: 2)
        retention.recorded(.hardState(group: 1, bytes: []), at: 3)
        #expect(retention.truncatableThrough == 1)
        #expect(retention.oldestNeeded?.reason == .entries)
        retention.recorded(.snapshot(group: 1, index: 2, metadata: []), at: 4)
        #expect(retention.truncatableThrough == 2)
        #expect(retention.oldestNeeded?.reason == .hardState)
    }

    @Test func aRewriteReleasesTheRecordsItReplaces() {
        var retention = RaftLogRetention()
        retention.recorded(.entries(group: 1, firstIndex: 5, entries: [[5], [6]]), at: 10)
        retention.recorded(.entries(group: 1, firstIndex: 5, entries: [[50]]), at: 11)
        #expect(retention.truncatableThrough == 10)
    }

    @Test func anIdleGroupIsNamedSoTheShellCanRewriteIt() {
        var retention = RaftLogRetention()
        retention.recorded(.hardState(group: 7, bytes: []), at: 1)
        for sequence in 2...100 { retention.recorded(.hardState(group: 1, bytes: []), at: UInt64(sequence)) }
        #expect(retention.oldestNeeded?.group == 7)
        #expect(retention.truncatableThrough == 0)
        retention.recorded(.hardState(group: 7, bytes: []), at: 101)
        #expect(retention.truncatableThrough == 99)
    }

    /// `holdingBack(through:)` names every group with a needed record at or below the sequence, and why: an idle
    /// group's old hard state and snapshot records (rewrite them), or entries after its snapshot (snapshot them).
    @Test func theGroupsHoldingBackATruncationAreNamedWithTheirReasons() {
        var retention = RaftLogRetention()
        retention.recorded(.snapshot(group: 1, index: 0, metadata: []), at: 1)
        retention.recorded(.hardState(group: 1, bytes: []), at: 2)
        retention.recorded(.snapshot(group: 2, index: 0, metadata: []), at: 3)
        retention.recorded(.entries(group: 2, firstIndex: 1, entries: [[1], [2]]), at: 4)
        for sequence in 5...20 { retention.recorded(.hardState(group: 2, bytes: []), at: UInt64(sequence)) }
        #expect(retention.holdingBack(through: 10) == [1: [.snapshot, .hardState], 2: [.snapshot, .entries]])
        #expect(retention.holdingBack(through: 2) == [1: [.snapshot, .hardState]])
        retention.recorded(.snapshot(group: 2, index: 2, metadata: []), at: 21)
        retention.recorded(.snapshot(group: 1, index: 0, metadata: []), at: 22)
        retention.recorded(.hardState(group: 1, bytes: []), at: 23)
        #expect(retention.holdingBack(through: 19).isEmpty)
        #expect(retention.truncatableThrough == 19)
    }

    /// The property recovery relies on: replaying only the records the log kept after truncating through
    /// `truncatableThrough` gives every group exactly the state a replay of the whole log gives.
    @Test(arguments: 0..<300 as Range<UInt64>)
    func replayingWhatIsKeptEqualsReplayingEverything(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        var log: [RaftLogRecord] = []
        var retention = RaftLogRetention()
        var model: [Int: (snapshot: UInt64, last: UInt64)] = [:]
        for _ in 0..<Int.random(in: 1...80, using: &random) {
            let group = Int.random(in: 0..<3, using: &random)
            var state = model[group] ?? (snapshot: 0, last: 0)
            let record: RaftLogRecord
            switch Int.random(in: 0..<10, using: &random) {
            case 0...1:
                record = .hardState(group: group, bytes: [UInt8(log.count % 256)])
            case 2...5:
                let count = UInt64.random(in: 1...4, using: &random)
                let entries = (0..<count).map {
                    [UInt8(truncatingIfNeeded: state.last + 1 + $0), UInt8(log.count % 256)]
                }
                record = .entries(group: group, firstIndex: state.last + 1, entries: entries)
                state.last += count
            case 6...7 where state.last > state.snapshot:
                let first = UInt64.random(in: (state.snapshot + 1)...state.last, using: &random)
                let count = UInt64.random(in: 0...3, using: &random)
                let entries = (0..<count).map { [UInt8(truncatingIfNeeded: first + $0), UInt8(log.count % 256)] }
                record = .entries(group: group, firstIndex: first, entries: entries)
                state.last = first + count - 1
            case 8 where state.last > state.snapshot:
                let index = UInt64.random(in: (state.snapshot + 1)...state.last, using: &random)
                record = .snapshot(group: group, index: index, metadata: [UInt8(truncatingIfNeeded: index)])
                state.snapshot = index
            default:
                let index = state.last + UInt64.random(in: 1...5, using: &random)
                record = .snapshot(group: group, index: index, metadata: [UInt8(truncatingIfNeeded: index)])
                state = (snapshot: index, last: index)
            }
            model[group] = state
            log.append(record)
            retention.recorded(record, at: UInt64(log.count))
        }
        var whole = RaftLogReplay()
        for record in log { try whole.apply(record) }
        var kept = RaftLogReplay()
        for record in log.dropFirst(Int(retention.truncatableThrough)) { try kept.apply(record) }
        let everything = try whole.finish()
        let fromKept = try kept.finish()
        for (group, state) in model {
            #expect(everything[group]?.lastIndex == state.last, "seed \(seed), group \(group)")
            #expect(everything[group]?.snapshotIndex == state.snapshot, "seed \(seed), group \(group)")
            let keptGroup = fromKept[group]
            #expect(keptGroup?.entries == everything[group]?.entries, "seed \(seed), group \(group)")
            #expect(keptGroup?.snapshotIndex == everything[group]?.snapshotIndex, "seed \(seed), group \(group)")
            #expect(keptGroup?.hardState == everything[group]?.hardState, "seed \(seed), group \(group)")
        }
    }
}
