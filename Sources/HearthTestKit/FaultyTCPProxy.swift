import Glibc
import HearthSystem

/// A TCP proxy on a loopback port that forwards to a target port and can be told, at runtime, to misbehave the way
/// networks do: stall (stop reading, so the sender's buffers fill), blackhole (swallow bytes silently), drop the
/// connections it carries, or cut the link entirely until healed. Partition tests put one between two nodes.
///
/// Blocking sockets on dedicated threads (one accepting, two per connection): test-only, and never on Swift's
/// cooperative pool. Every thread polls with a short timeout, so mode changes take effect within ~20 ms. The threads
/// keep the proxy alive until `close()`, which every test must call.
public final class FaultyTCPProxy: Sendable {
    /// What the proxy does with the bytes of the connections it carries.
    public enum Mode: Sendable, Hashable {
        /// Forwards both ways.
        case forward
        /// Reads nothing in either direction: the senders' socket buffers fill and their writes back up.
        case stall
        /// Reads and discards both ways: the senders see their writes succeed and nothing ever arrives.
        case blackhole
        /// Forwards the client's bytes to the target but discards the target's replies: requests arrive and are
        /// carried out while their answers are lost, as when a connection dies between the two.
        case deafen
    }

    private struct State {
        var mode = Mode.forward
        /// Connections are refused (accepted and reset at once) until `heal()`.
        var isCut = false
        var isClosed = false
        var pairs: [Int: Pair] = [:]
        var nextPair = 0
        var accepted = 0
    }

    /// The two sockets of one proxied connection; closed by whichever pump finishes second.
    ///
    /// A reset and the final close exclude each other: once the descriptors are closed their numbers may already
    /// belong to another test's socket in this process, which a late reset must never shut down.
    private final class Pair: Sendable {
        let client: Int32
        let server: Int32
        /// Pumps still running; the descriptors are closed when it reaches zero.
        private let remainingPumps = Lock(2)

        init(client: Int32, server: Int32) {
            self.client = client
            self.server = server
        }

        /// Resets both sides (SO_LINGER 0) and wakes the pumps, unless the sockets are already closed.
        func reset() {
            self.remainingPumps.withLock { remaining in
                guard remaining > 0 else { return }
                for descriptor in [self.client, self.server] where descriptor >= 0 {
                    var option = linger(l_onoff: 1, l_linger: 0)
                    setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
                    shutdown(descriptor, Int32(SHUT_RDWR))
                }
            }
        }

        func pumpFinished() {
            self.remainingPumps.withLock { remaining in
                remaining -= 1
                guard remaining == 0 else { return }
                Glibc.close(self.client)
                Glibc.close(self.server)
            }
        }
    }

    /// The loopback port clients connect to.
    public let port: Int
    /// The loopback port connections are forwarded to.
    public let targetPort: Int
    private let listener: Int32
    private let state = Lock(State())

    /// Listens on `127.0.0.1:0` and forwards every connection to `127.0.0.1:targetPort`.
    public init(targetPort: Int) throws {
        self.targetPort = targetPort
        self.listener = try Self.listen()
        self.port = try Self.localPort(self.listener)
        try DedicatedThread.start(name: "proxy-accept") { [self] in self.acceptLoop() }.detach()
    }

    /// Sets how carried bytes are treated (connections stay up).
    public func setMode(_ mode: Mode) {
        self.state.withLock { $0.mode = mode }
    }

    /// Resets every connection the proxy carries; new ones are still accepted.
    public func dropConnections() {
        let pairs = self.state.withLock { state in
            defer { state.pairs = [:] }
            return Array(state.pairs.values)
        }
        for pair in pairs { pair.reset() }
    }

    /// Cuts the link: resets every connection and refuses new ones until `heal()`.
    public func cut() {
        self.state.withLock { $0.isCut = true }
        self.dropConnections()
    }

    /// Forwards again and accepts new connections. Healing a blackhole (or a deafened link) also resets the
    /// connections it carried: their streams lost bytes, as no real TCP connection does, so they end the way a
    /// timed-out one would.
    public func heal() {
        let wasBlackhole = self.state.withLock { state in
            defer {
                state.isCut = false
                state.mode = .forward
            }
            return state.mode == .blackhole || state.mode == .deafen
        }
        if wasBlackhole { self.dropConnections() }
    }

    /// Connections accepted and forwarded so far.
    public var acceptedConnections: Int { self.state.withLock { $0.accepted } }

    /// Connections carried right now.
    public var openConnections: Int { self.state.withLock { $0.pairs.count } }

    /// Stops accepting and resets every connection. Later calls do nothing.
    public func close() {
        let wasClosed = self.state.withLock { state in
            defer { state.isClosed = true }
            return state.isClosed
        }
        guard !wasClosed else { return }
        self.dropConnections()
        // The accept loop notices within one poll and closes the listener itself; touching the descriptor here
        // could race with that close and hit another socket that reused its number.
    }

    private var mode: Mode { self.state.withLock { $0.mode } }
    private var isClosed: Bool { self.state.withLock { $0.isClosed } }

    private func acceptLoop() {
        defer { Glibc.close(self.listener) }
        while !self.isClosed {
            guard Self.poll(self.listener, milliseconds: 20) else { continue }
            let client = accept(self.listener, nil, nil)
            guard client >= 0 else { continue }
            let isCut = self.state.withLock { $0.isCut || $0.isClosed }
            guard !isCut, let server = try? Self.connect(port: self.targetPort) else {
                Pair(client: client, server: -1).reset()
                Glibc.close(client)
                continue
            }
            let pair = Pair(client: client, server: server)
            let key = self.state.withLock { state in
                state.nextPair += 1
                state.accepted += 1
                state.pairs[state.nextPair] = pair
                return state.nextPair
            }
            for (source, destination, isReply) in [(client, server, false), (server, client, true)] {
                do {
                    try DedicatedThread.start(name: "proxy-pump") {
                        self.pump(from: source, to: destination, isReply: isReply, key: key, pair: pair)
                    }.detach()
                } catch {
                    pair.reset()
                    pair.pumpFinished()
                }
            }
        }
    }

    private func pump(from source: Int32, to destination: Int32, isReply: Bool, key: Int, pair: Pair) {
        defer {
            self.state.withLock { _ = $0.pairs.removeValue(forKey: key) }
            pair.reset()
            pair.pumpFinished()
        }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while !self.isClosed {
            if self.mode == .stall {
                usleep(5_000)
                continue
            }
            guard Self.poll(source, milliseconds: 20) else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(source, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
            let mode = self.mode
            guard mode != .blackhole, !(mode == .deafen && isReply) else { continue }
            var offset = 0
            while offset < count {
                let written = buffer[offset..<count].withUnsafeBytes {
                    send(destination, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}
