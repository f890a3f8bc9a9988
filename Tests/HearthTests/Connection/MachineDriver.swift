import HearthCore
import HearthNet
import HearthTestKit
import HearthWire

@testable import Hearth

/// Drives a `ConnectionMachine` by hand for tests: a manual clock, seeded jitter, and helpers that play the server
/// (handshake, answers, pushes) and read back what the machine sent and reported.
struct MachineDriver {
    typealias Action = ConnectionMachine.Action

    var machine: ConnectionMachine
    var now = ConnectionTime(monotonic: .seconds(100), unixMilliseconds: 1_700_000_000_000)

    init(endpoints: Int = 1, seed: UInt64 = 9, configure: (inout ConnectionMachine.Configuration) -> Void = { _ in }) {
        let list = (0..<endpoints).map { RealtimeEndpoint(host: "127.0.0.1", port: 9000 + $0) }
        var configuration = ConnectionMachine.Configuration(endpoints: list, namespace: "demo")
        configure(&configuration)
        self.machine = ConnectionMachine(configuration: configuration, random: SeededRandom(seed: seed))
    }

    /// Moves the clock on by `duration` and ticks.
    mutating func advance(_ duration: Duration) -> [Action] {
        self.now.monotonic += duration
        self.now.unixMilliseconds += Int64(duration.components.seconds * 1000)
        return self.machine.tick(at: self.now)
    }

    /// Ticks at the machine's own next wake-up.
    mutating func advanceToWake() -> [Action] {
        guard let wake = self.machine.nextWake else { return [] }
        return self.advance(max(.zero, wake - self.now.monotonic))
    }

    mutating func online() -> [Action] { self.machine.goOnline(at: self.now) }

    mutating func offline() -> [Action] { self.machine.goOffline(at: self.now) }

    mutating func command(_ command: ServerCommand) -> [Action] { self.machine.handle(command, at: self.now) }

    /// One text frame from the server on the current attempt.
    mutating func frame(_ text: String) -> [Action] {
        self.machine.transportReceived(text: text, attempt: self.machine.attempt, at: self.now)
    }

    /// One whole server message, as one frame.
    mutating func receive(_ message: WireServerMessage) -> [Action] {
        self.frame(String(decoding: message.encoded(), as: UTF8.self))
    }

    /// The handshake, with the server's clock `offset` milliseconds ahead of ours.
    mutating func handshake(session: String = "s1", offset: Int64 = 0) -> [Action] {
        self.receive(
            .handshake(WireHandshake(timestamp: self.now.unixMilliseconds + offset, host: "h", sessionID: session)))
    }

    /// Goes online and completes the handshake; returns what the handshake produced.
    mutating func connect() -> [Action] {
        _ = self.online()
        _ = self.machine.transportOpened(attempt: self.machine.attempt, at: self.now)
        return self.handshake()
    }

    /// The current transport closes under the machine.
    mutating func dropTransport() -> [Action] {
        self.machine.transportClosed(
            attempt: self.machine.attempt, error: RealtimeConnectionError(.connectionFailed, "reset"), at: self.now)
    }

    static func events(_ actions: [Action]) -> [ServerEvent] {
        actions.compactMap { if case .event(let event) = $0 { event } else { nil } }
    }

    static func frames(_ actions: [Action]) -> [String] {
        actions.compactMap { if case .send(_, let frame) = $0 { frame } else { nil } }
    }

    /// The requests sent, decoded, in order (control messages left out).
    static func requests(_ actions: [Action]) -> [(id: Int64, request: WireRequest)] {
        var assembler = WireFrameAssembler(maximumMessageBytes: .max)
        var result: [(Int64, WireRequest)] = []
        for frame in Self.frames(actions) {
            guard let message = try? assembler.onFrame(frame),
                case .request(let id, let request)? = try? WireClientMessage(decoding: message)
            else { continue }
            result.append((id, request))
        }
        return result
    }

    static func opened(_ actions: [Action]) -> [RealtimeEndpoint] {
        actions.compactMap { if case .openTransport(_, let endpoint, _) = $0 { endpoint } else { nil } }
    }

    static func answer(_ id: Int64, _ response: WireResponse = .okEmpty) -> WireServerMessage {
        .response(id: id, response)
    }
}
