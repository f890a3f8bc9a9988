import HearthCluster
import Testing

@Suite struct RaftLogReplayTests {
    private func replay(_ records: [RaftLogRecord]) throws -> [Int: RaftLogReplay.Group] {
        var replay = RaftLogReplay()
        for record in records { try replay.apply(record) }
        return try replay.finish()
    }

    private func entries(_ values: ClosedRange<UInt8>) -> [[UInt8]] { values.map { [$0] } }

    @Test func newestHardStateWinsAndEntriesAppend() throws {
        let groups = try self.replay([
            .hardState(group: 1, bytes: [1]),
            .entries(group: 1, firstIndex: 1, entries: self.entries(1...3)),
            .entries(group: 1, firstIndex: 4, entries: self.entries(4...5)),
            .hardState(group: 1, bytes: [2]),
        ])
        #expect(groups[1]?.hardState == [2])
        #expect(groups[1]?.entries == self.entries(1...5))
        #expect(groups[1]?.lastIndex == 5)
    }

    @Test func aRewrittenSuffixReplacesTheOldOne() throws {
        let groups = try self.replay([
            .entries(group: 1, firstIndex: 1, entries: self.entries(1...5)),
            .entries(group: 1, firstIndex: 3, entries: [[30], [40]]),
        ])
        #expect(groups[1]?.entries == [[1], [2], [30], [40]])
    }

    @Test func aSnapshotDropsTheEntriesItCovers() throws {
        let groups = try self.replay([
            .entries(group: 1, firstIndex: 1, entries: self.entries(1...5)),
            .snapshot(group: 1, index: 3, metadata: [9]),
        ])
        #expect(groups[1]?.snapshotIndex == 3)
        #expect(groups[1]?.snapshotMetadata == [9])
        #expect(groups[1]?.entries == self.entries(4...5))
    }

    @Test func anInstalledSnapshotBeyondTheLogClearsIt() throws {
        let groups = try self.replay([
            .entries(group: 1, firstIndex: 1, entries: self.entries(1...2)),
            .snapshot(group: 1, index: 10, metadata: []),
            .entries(group: 1, firstIndex: 11, entries: self.entries(11...12)),
        ])
        #expect(groups[1]?.snapshotIndex == 10)
        #expect(groups[1]?.entries == self.entries(11...12))
    }

    @Test func entriesPastTheEndMeanMissingRecords() {
        #expect(throws: RaftLogReplayError.self) {
            try self.replay([
                .entries(group: 4, firstIndex: 1, entries: self.entries(1...2)),
                .entries(group: 4, firstIndex: 5, entries: self.entries(5...5)),
            ])
        }
    }

    @Test func aHoleThatALaterSnapshotCoversIsFine() throws {
        let groups = try self.replay([
            .snapshot(group: 2, index: 1, metadata: []),
            .entries(group: 2, firstIndex: 3, entries: self.entries(3...4)),
            .snapshot(group: 2, index: 3, metadata: []),
        ])
        #expect(groups[2]?.entries == self.entries(4...4))
    }

    @Test func aSuffixStartingWithEntriesIsFineWhenItsSnapshotFollows() throws {
        let groups = try self.replay([
            .entries(group: 2, firstIndex: 11, entries: self.entries(11...13)),
            .snapshot(group: 2, index: 10, metadata: [1]),
        ])
        #expect(groups[2]?.entries == self.entries(11...13))
    }

    @Test func entriesThatDoNotReachTheSnapshotAreRefused() {
        #expect(throws: RaftLogReplayError.self) {
            try self.replay([
                .snapshot(group: 2, index: 10, metadata: [1]),
                .entries(group: 2, firstIndex: 11, entries: []),
                .hardState(group: 3, bytes: []),
                .entries(group: 5, firstIndex: 20, entries: self.entries(20...21)),
            ])
        }
    }

    @Test func groupsAreIndependent() throws {
        let groups = try self.replay([
            .entries(group: 1, firstIndex: 1, entries: self.entries(1...2)),
            .entries(group: 2, firstIndex: 1, entries: self.entries(7...9)),
            .entries(group: 1, firstIndex: 2, entries: [[20]]),
        ])
        #expect(groups[1]?.entries == [[1], [20]])
        #expect(groups[2]?.entries == self.entries(7...9))
    }
}
