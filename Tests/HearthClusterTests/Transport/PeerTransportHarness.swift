import HearthCluster
import HearthNet
import HearthSystem
import HearthTestKit
import Synchronization
import Testing

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
    /// The cluster secret the test transports share.
    static let secret = Self.makeSecret("test cluster secret, 32 bytes or more")
    /// A secret of another cluster (or a stranger's guess).
    static let otherSecret = Self.makeSecret("a different secret, also long enough")

    static func makeSecret(_ text: String) -> PeerClusterSecret {
        guard let secret = PeerClusterSecret(keys: [Array(text.utf8)]) else { fatalError("test secret too short") }
        return secret
    }

    static func configuration(
        _ node: NodeID, cluster: String = "test", port: Int = 0, secret: PeerClusterSecret = Self.secret
    ) throws -> PeerTransport.Configuration {
        var configuration = PeerTransport.Configuration(
            node: node,
            cluster: cluster,
            secret: secret,
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

    /// Starts nodes `n1` and `n2` with `first` and `second`, which must refuse each other's handshake: both try (at
    /// least twice), neither connects, and no frame passes between them.
    static func expectRefusedPair(_ first: PeerTransport.Configuration, _ second: PeerTransport.Configuration)
        async throws
    {
        let inbox1 = FrameInbox()
        let inbox2 = FrameInbox()
        let n1 = try Self.start(first, inbox: inbox1)
        let n2 = try Self.start(second, inbox: inbox2)
        try Self.connectAll([n1, n2])
        n1.send([1], kind: 1, to: "n2")
        n2.send([2], kind: 1, to: "n1")
        #expect(await eventually { (n1.statistics(for: "n2")?.handshakeFailures ?? 0) >= 2 })
        #expect(n1.statistics(for: "n2")?.connectionsEstablished == 0)
        #expect(n2.statistics(for: "n1")?.connectionsEstablished == 0)
        #expect(inbox1.all.isEmpty && inbox2.all.isEmpty)
        await n1.shutdown()
        await n2.shutdown()
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

/// A peer driven by hand on a raw loopback connection: it speaks the handshake as a dialer would (or not), for tests
/// of what a node does with connections that no honest transport makes.
struct RawPeer {
    let connection: LoopbackConnection
    var handshake: PeerHandshake

    /// Connects to `port` and sends a hello as `node` of `cluster`, for `purpose`.
    init(
        port: Int, node: String, cluster: String = "test", purpose: PeerHello.Purpose = .link,
        secret: PeerClusterSecret = PeerTransportHarness.secret
    ) throws {
        self.connection = try LoopbackConnection(port: port, timeoutSeconds: 5)
        self.handshake = PeerHandshake(
            role: .dialer,
            local: PeerHello(purpose: purpose, cluster: cluster, node: node, nonce: PeerHello.freshNonce()),
            secret: secret)
        try self.connection.send(self.handshake.opening.encoded)
    }

    /// Reads one whole frame, blocking until it has arrived.
    func readFrame() throws -> PeerFrame {
        let header = try self.connection.readExactly(PeerFrame.headerSize)
        let length = (0..<4).reduce(0) { $0 | Int(header[$1]) << (8 * $1) }
        return PeerFrame(kind: header[4], payload: try self.connection.readExactly(length))
    }

    /// Plays the dialer's part until the node's proof is verified; throws when the node refuses or closes.
    mutating func completeHandshake() throws {
        while self.handshake.established == nil {
            for case .send(let frame) in try self.handshake.receive(try self.readFrame()) {
                try self.connection.send(frame.encoded)
            }
        }
    }
}
