import HearthSystem
import HearthTestKit
import Testing

/// A manual clock wakes sleepers only when moved past their deadlines, in deadline order, and a cancelled sleeper
/// leaves at once.
@Suite struct ManualNodeClockTests {
    @Test func sleepersWakeInDeadlineOrderWhenTheClockPassesThem() async throws {
        let clock = ManualNodeClock()
        let woke = Slot<[Int]>()
        woke.set([])
        let late = Task {
            try await clock.sleep(for: .seconds(2)); woke.set((woke.current ?? []) + [2])
        }
        let early = Task {
            try await clock.sleep(for: .seconds(1)); woke.set((woke.current ?? []) + [1])
        }
        while clock.sleeping < 2 { await Task.yield() }
        #expect(clock.nextDeadline == .seconds(1))
        #expect(clock.advance(by: .milliseconds(500)) == 0)
        #expect(clock.advance(to: .seconds(3)) == 2)
        try await early.value
        try await late.value
        #expect(woke.current?.sorted() == [1, 2])
        #expect(clock.now - clock.now == .zero)
    }

    @Test func aCancelledSleeperThrowsAtOnce() async {
        let clock = ManualNodeClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
        while clock.sleeping < 1 { await Task.yield() }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeping == 0)
    }
}
