import HearthCore
import HearthNet
import HearthWire
import Testing

@testable import Hearth

@Suite struct ConnectionMachineReconnectTests {
    /// Failed attempts wait longer and longer (jittered, capped), and the delays replay from the same seed.
    @Test func backoffGrows() {
        func delays(seed: UInt64) -> [Duration] {
            var driver = MachineDriver(seed: seed)
            _ = driver.online()
            var result: [Duration] = []
            for _ in 0..<12 {
                _ = driver.dropTransport()
                guard let wake = driver.machine.nextWake else { return result }
                result.append(wake - driver.now.monotonic)
                #expect(MachineDriver.opened(driver.advanceToWake()).count == 1)
            }
            return result
        }
        let first = delays(seed: 1)
        #expect(first == delays(seed: 1))
        #expect(first.count == 12)
        #expect(first[0] >= .milliseconds(500) && first[0] <= .seconds(1))
        #expect(first[11] > first[0] * 4)
        #expect(first.allSatisfy { $0 <= .seconds(30) })
    }

    /// A connection that lived long enough resets the back-off; one that dropped at once does not.
    @Test func backoffResetsAfterALongConnection() {
        var driver = MachineDriver(configure: {
            $0.backoff = Backoff(initial: .seconds(1), maximum: .seconds(60), multiplier: 2, jitter: 0)
        })
        _ = driver.online()
        for _ in 0..<4 {
            _ = driver.dropTransport()
            _ = driver.advanceToWake()
        }
        _ = driver.handshake()
        _ = driver.dropTransport()
        #expect(driver.machine.nextWake.map { $0 - driver.now.monotonic } == .seconds(16))
        _ = driver.advanceToWake()
        _ = driver.handshake()
        _ = driver.advance(.seconds(31))
        _ = driver.receive(.pong)
        _ = driver.dropTransport()
        #expect(driver.machine.nextWake.map { $0 - driver.now.monotonic } == .seconds(1))
    }

    /// With several nodes, a lost connection moves to the next node at once; only a failed round waits.
    @Test func failsOverBetweenEndpoints() {
        var driver = MachineDriver(endpoints: 3)
        _ = driver.connect()
        let toSecond = driver.dropTransport()
        #expect(MachineDriver.opened(toSecond).map(\.port) == [9001])
        let toThird = driver.dropTransport()
        #expect(MachineDriver.opened(toThird).map(\.port) == [9002])
        let roundOver = driver.dropTransport()
        #expect(MachineDriver.opened(roundOver).isEmpty)
        #expect(MachineDriver.opened(driver.advanceToWake()).map(\.port) == [9000])
        #expect(MachineDriver.opened(driver.dropTransport()).map(\.port) == [9001])
    }

    /// An idle connection is pinged; one that then stays silent is closed and redialled, within seconds.
    @Test func silentConnectionsAreDropped() {
        var driver = MachineDriver()
        _ = driver.connect()
        let ping = driver.advance(.seconds(10))
        #expect(ping.count == 1)
        #expect(MachineDriver.frames(ping) == [#"{"d":{"d":{},"t":"p"},"t":"c"}"#])
        #expect(driver.advance(.seconds(2)).isEmpty)
        _ = driver.receive(.pong)
        #expect(driver.advance(.seconds(9)).isEmpty)
        _ = driver.advance(.seconds(1))
        let dropped = driver.advance(.seconds(5))
        #expect(dropped.contains(.closeTransport(attempt: 1)))
        #expect(MachineDriver.events(dropped) == [.disconnected])
        #expect(MachineDriver.opened(driver.advanceToWake()).count == 1)
    }

    /// After the computer slept, the first tick sees the silence and pings at once.
    @Test func pingsAtOnceAfterASleep() {
        var driver = MachineDriver()
        _ = driver.connect()
        let afterSleep = driver.advance(.seconds(3600))
        #expect(MachineDriver.frames(afterSleep).count == 1)
        #expect(driver.machine.nextWake == driver.now.monotonic + .seconds(5))
    }

    /// An attempt with no handshake in time is abandoned and retried.
    @Test func handshakeTimeout() {
        var driver = MachineDriver()
        _ = driver.online()
        let actions = driver.advance(.seconds(10))
        #expect(actions.contains(.closeTransport(attempt: 1)))
        #expect(MachineDriver.events(actions).isEmpty)
        #expect(MachineDriver.opened(driver.advanceToWake()).count == 1)
    }

    /// Events of a transport the machine already dropped change nothing.
    @Test func staleTransportsAreIgnored() {
        var driver = MachineDriver()
        _ = driver.connect()
        _ = driver.offline()
        _ = driver.online()
        let stale = driver.machine.transportReceived(
            text: String(decoding: WireServerMessage.pong.encoded(), as: UTF8.self), attempt: 1, at: driver.now)
        #expect(stale.isEmpty)
        #expect(driver.machine.transportClosed(attempt: 1, error: nil, at: driver.now).isEmpty)
        #expect(!driver.machine.isConnected)
    }
}
