import HearthSystem
import Testing

@Suite struct DescriptorLimitTests {
    /// Connections get what the limit leaves after the reserve; a small limit keeps at least half for them, and
    /// never fewer than 16.
    @Test func connectionsLeaveTheReserveForFilesAndPeers() {
        #expect(DescriptorLimit(soft: 1024, hard: 4096).connections == 1024 - DescriptorLimit.reserved)
        #expect(DescriptorLimit(soft: 1_048_576, hard: 1_048_576).connections == 1_048_576 - DescriptorLimit.reserved)
        #expect(DescriptorLimit(soft: 100, hard: 100).connections == 50)
        #expect(DescriptorLimit(soft: 8, hard: 8).connections == 16)
    }

    /// The process's limits read back as positive counts, soft never above hard, and raising keeps that true.
    @Test func readsAndRaisesTheProcessLimit() {
        let before = DescriptorLimit.current()
        #expect(before.soft > 0 && before.soft <= before.hard)
        let after = DescriptorLimit.raiseToHard()
        #expect(after.soft >= before.soft && after.soft <= after.hard)
    }
}
