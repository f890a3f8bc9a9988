import HearthCluster
import HearthNet
import HearthSystem
import HearthTestKit
import Synchronization

/// The frames one transport received, by sender, for assertions from the test's task.
final class FrameInbox: Sendable {
    struct Frame: Sendable, Hashable {
        let from: NodeID
        let kind: UInt8
        let payload: [UInt8]
    }

    private let frames = Mutex<[Frame]>([])

    var handler: PeerTransport.FrameHandler {
        { from, kind, payload in self.frames.withLock { $0.append(Frame(from: from, kind: kind, payload: payload)) } }
    }

    var all: [Frame] { self.frames.withLock { $0 } }

    func payloads(from peer: NodeID) -> [[UInt8]] {
        self.all.filter { $0.from == peer }.map(\.payload)
    }
}

/// Starts transports on loopback port 0 and wires them to each other (optionally through a proxy).
enum PeerTransportHarness {
    static let quietLog = Log(level: .critical)

    static func configuration(_ node: NodeID, cluster: String = "test", port: Int = 0) throws
        -> PeerTransport.Configuration
    {
        var configuration = PeerTransport.Configuration(
            node: node,
            cluster: cluster,
            listenAddress: try SocketAddress(host: "127.0.0.1", port: port)
        )
        configuration.backoff = Backoff(
            initial: .milliseconds(20), maximum: .milliseconds(200), multiplier: 2, jitter: 0.5)
        return configuration
    }

    static func start(_ configuration: PeerTransport.Configuration, inbox: FrameInbox) throws -> PeerTransport {
        try PeerTransport(configuration: configuration, log: Self.quietLog, onFrame: inbox.handler)
    }

    /// Tells every transport about every other one.
    static func connectAll(_ transports: [PeerTransport]) throws {
        for transport in transports {
            for other in transports where other !== transport {
                transport.addPeer(other.node, at: try SocketAddress(host: "127.0.0.1", port: other.port))
            }
        }
    }

    /// Whether `a` and `b` see each other connected within a few seconds.
    static func waitConnected(_ a: PeerTransport, _ b: PeerTransport) async -> Bool {
        await eventually {
            a.statistics(for: b.node)?.isConnected == true && b.statistics(for: a.node)?.isConnected == true
        }
    }

    /// `count` numbered payloads, each `size` bytes (at least 4), starting at `start`.
    static func numbered(_ count: Int, from start: Int = 0, size: Int = 16) -> [[UInt8]] {
        (start..<(start + count)).map { number in
            var payload = withUnsafeBytes(of: UInt32(number).littleEndian) { Array($0) }
            payload += Array(repeating: UInt8(truncatingIfNeeded: number), count: max(0, size - 4))
            return payload
        }
    }
}
