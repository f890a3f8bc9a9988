import Testing

@testable import HearthDatabase
@testable import HearthServer

/// A node streams a bounded number of backups at once, and a slot comes back however its backup ends.
@Suite struct BackupSlotsTests {
    /// Past the limit a backup is refused; dropping a slot (the stream gone, sent or not) frees it for the next.
    @Test func slotsAreBoundedAndComeBackWhenDropped() {
        let slots = BackupSlots(limit: 2)
        var first = slots.take()
        let second = slots.take()
        #expect(first != nil && second != nil)
        #expect(slots.take() == nil, "a third backup at once is refused")
        first = nil
        #expect(first == nil)
        let third = slots.take()
        #expect(third != nil, "a dropped slot is given back")
        #expect(slots.take() == nil)
        withExtendedLifetime((second, third)) {}
    }
}
