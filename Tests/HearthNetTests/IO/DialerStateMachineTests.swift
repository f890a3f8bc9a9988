import HearthTestKit
import Testing

@testable import HearthNet

/// The reconnect policy as a transcript: one event, one expected action per line.
@Suite struct DialerStateMachineTests {
    private let backoff = Backoff(initial: .milliseconds(100), maximum: .seconds(1), jitter: 0)

    @Test func connectsRetriesWithGrowingDelaysAndResetsOnSuccess() {
        var machine = DialerStateMachine(backoff: self.backoff)
        var random = SeededRandom(seed: 1)
        #expect(machine.start() == .connect)
        #expect(machine.connectionEnded(using: &random) == .retry(after: .milliseconds(100)))
        #expect(machine.retryTimerFired() == .connect)
        #expect(machine.connectionEnded(using: &random) == .retry(after: .milliseconds(200)))
        #expect(machine.retryTimerFired() == .connect)
        machine.connected()
        #expect(machine.state == .connected)
        #expect(machine.connectionEnded(using: &random) == .retry(after: .milliseconds(100)))
        #expect(machine.state == .waiting)
    }

    @Test func stoppingClosesTheConnectionOrCancelsTheRetry() {
        var random = SeededRandom(seed: 1)
        var connected = DialerStateMachine(backoff: self.backoff)
        _ = connected.start()
        connected.connected()
        #expect(connected.stop() == .closeConnection)
        #expect(connected.connectionEnded(using: &random) == .none)

        var waiting = DialerStateMachine(backoff: self.backoff)
        _ = waiting.start()
        _ = waiting.connectionEnded(using: &random)
        #expect(waiting.stop() == .cancelRetry)
        #expect(waiting.retryTimerFired() == .none)
        #expect(waiting.state == .stopped)
    }

    @Test func eventsOutOfTurnDoNothing() {
        var random = SeededRandom(seed: 1)
        var machine = DialerStateMachine(backoff: self.backoff)
        #expect(machine.retryTimerFired() == .none)
        #expect(machine.connectionEnded(using: &random) == .none)
        #expect(machine.stop() == .none)
        #expect(machine.start() == .none)
    }
}
