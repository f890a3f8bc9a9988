import HearthTestKit
import Testing

@testable import HearthNet

/// The reconnect policy as a transcript: one event, one expected action per line.
@Suite struct DialerStateMachineTests {
    private let backoff = Backoff(initial: .milliseconds(100), maximum: .seconds(1), jitter: 0)

    /// Failed dials wait longer and longer; a dial that connects starts the back-off over.
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

    /// With `.onConfirmation`, connections that come up and are then refused (their handshake never confirmed) keep
    /// the back-off growing to its cap; only a confirmed connection starts it over.
    @Test func onlyAConfirmedConnectionResetsTheBackoff() {
        var machine = DialerStateMachine(backoff: self.backoff, reset: .onConfirmation)
        var random = SeededRandom(seed: 1)
        #expect(machine.start() == .connect)
        var delays: [Duration] = []
        for _ in 0..<6 {
            machine.connected()
            guard case .retry(let delay) = machine.connectionEnded(using: &random) else { break }
            delays.append(delay)
            #expect(machine.retryTimerFired() == .connect)
        }
        let expected: [Duration] = [100, 200, 400, 800, 1000, 1000].map { .milliseconds($0) }
        #expect(delays == expected)
        machine.connected()
        machine.confirmed()
        #expect(machine.connectionEnded(using: &random) == .retry(after: .milliseconds(100)))
        machine.confirmed()
        #expect(machine.state == .waiting)
        #expect(machine.backoff.failures == 1)
    }

    /// Closing a dialer closes its connection, or cancels its pending retry; nothing is dialled afterwards.
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

    /// Events that do not fit the state are ignored.
    @Test func eventsOutOfTurnDoNothing() {
        var random = SeededRandom(seed: 1)
        var machine = DialerStateMachine(backoff: self.backoff)
        #expect(machine.retryTimerFired() == .none)
        #expect(machine.connectionEnded(using: &random) == .none)
        #expect(machine.stop() == .none)
        #expect(machine.start() == .none)
    }
}
