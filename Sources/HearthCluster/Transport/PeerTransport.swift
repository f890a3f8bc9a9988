package import HearthNet
package import HearthSystem
import Synchronization

/// The node's links to the other cluster members: one TCP connection per pair of nodes on a dedicated event loop,
/// carrying length-prefixed frames after a hello that proves both sides belong to the same cluster and version.
///
/// - **One connection per pair.** The node with the lower id dials (with jittered exponential back-off through a
///   `Dialer`, reset by every verified handshake, so a refused node is redialled less and less often); the other
///   accepts. So two nodes starting together never dial each other twice, and a restarted dialer's new connection
///   simply replaces the old one on the accepting side.
/// - **Bounded, batched output.** `send` appends the frame to the peer's queue from any thread; the connection moves
///   everything queued into its socket in one write per reactor turn. Frames wait in the queue while the peer is
///   unreachable or slow; when it would exceed `outboundQueueLimit`, new frames are dropped and counted (Raft and
///   membership tolerate loss), so a stalled peer never grows memory without limit.
/// - **Ordered input.** Each peer's frames reach `onFrame` in the order they were sent, on the loop's thread: the
///   handler must be quick and must not block (hand work to an actor or a queue).
package final class PeerTransport: Sendable {
    /// Inbound frames: the sending peer, the frame's kind (never 0, the hello) and its payload.
    package typealias FrameHandler = @Sendable (NodeID, UInt8, [UInt8]) -> Void
    /// A join request's payload, the release the joining node named in its hello, and where the answer goes (from
    /// any thread, once).
    package typealias JoinHandler =
        @Sendable (_ request: [UInt8], _ release: HearthRelease, _ reply: @escaping @Sendable ([UInt8]) -> Void) ->
        Void

    /// What happened to a frame given to `send`.
    package enum SendOutcome: Sendable, Hashable {
        /// Queued for the peer.
        case queued
        /// The peer's queue is full; the frame was dropped and counted.
        case dropped
        /// The payload is above `maximumPayloadSize`; split it.
        case tooLarge
        /// No such peer (never added, or removed); kind 0 is reserved for the hello.
        case refused
        /// The peer is cut off by fault injection (`partition(from:)`); the frame was dropped.
        case partitioned
        /// `requireConnection` was asked and no connection to the peer is up; the frame was not queued.
        case disconnected
    }

    private let core: PeerTransportCore
    private let loop: EventLoop
    /// The port the transport accepts peers on (the real one when the configuration asked for port 0).
    package let port: Int

    /// Listens on `configuration.listenAddress` and starts the loop; peers are added with `addPeer`.
    ///
    /// - Throws: `IOError` when the address cannot be bound or the loop cannot start.
    package init(
        configuration: Configuration,
        log: Log = Log(level: .info),
        onFrame: @escaping FrameHandler
    ) throws(IOError) {
        let core = PeerTransportCore(configuration: configuration, log: log, onFrame: onFrame)
        let listener = try Listener(address: configuration.listenAddress) {
            PeerConnectionHandler(core: core, role: .accepted)
        }
        var loopConfiguration = EventLoop.Configuration()
        loopConfiguration.maximumConnections = configuration.maximumConnections
        self.loop = try EventLoop(configuration: loopConfiguration, listener: listener)
        self.core = core
        self.port = listener.port
        let loop = self.loop
        core.loop.withLock { $0 = loop }
        log.info("peer.listening", ["node": configuration.node.name, "address": "\(configuration.listenAddress)"])
    }

    /// This node's id.
    package var node: NodeID { self.core.configuration.node }

    /// Starts talking to `peer` at `address`: dials it when this node's id is lower, otherwise waits for it to dial.
    /// Adding a peer that is already known, or this node itself, does nothing.
    package func addPeer(_ peer: NodeID, at address: SocketAddress) {
        let configuration = self.core.configuration
        guard peer != configuration.node else { return }
        let link = PeerLink(peer: peer, address: address, limit: configuration.outboundQueueLimit)
        let isNew = self.core.links.withLock { links in
            guard links[peer] == nil else { return false }
            links[peer] = link
            return true
        }
        guard isNew, configuration.node < peer else { return }
        let core = self.core
        let dialer = Dialer(
            connectingTo: address,
            on: self.loop,
            configuration: Dialer.Configuration(
                connectTimeout: configuration.connectTimeout, backoff: configuration.backoff, reset: .onConfirmation),
            makeHandler: { PeerConnectionHandler(core: core, role: .dialed(peer)) }
        )
        link.setDialer(dialer)
    }

    /// Answers the nodes that connect to ask to join (a `PeerFrameKind.join` frame instead of a hello) with
    /// `handler`; the connection sends the reply and closes. Until a handler is set, such connections are refused.
    package func setJoinHandler(_ handler: @escaping JoinHandler) {
        self.core.joinHandler.withLock { $0 = LockedClosure(handler) }
    }

    /// Calls `handler` on the reactor thread whenever the connection to a peer is lost and no newer one has taken
    /// its place (the peer crashed, restarted or was cut off): frames sent on it and not answered never will be.
    package func setDisconnectHandler(_ handler: @escaping @Sendable (NodeID) -> Void) {
        self.core.disconnectHandler.withLock { $0 = LockedClosure(handler) }
    }

    /// Stops talking to `peer`: drops its queue, stops dialing and closes its connection.
    package func removePeer(_ peer: NodeID) {
        guard let link = self.core.links.withLock({ $0.removeValue(forKey: peer) }) else { return }
        if let connection = link.remove() {
            self.core.close(connection: connection, reason: "\(peer) was removed from the cluster")
        }
    }

    /// Queues one frame for `peer`; thread-safe, never blocks.
    /// - Parameter requireConnection: queue it only while a connection to the peer is up, for a request whose
    ///   sender would rather know at once that the peer is down than wait for an answer that cannot come.
    @discardableResult
    package func send(_ payload: [UInt8], kind: UInt8, to peer: NodeID, requireConnection: Bool = false)
        -> SendOutcome
    {
        guard kind != PeerFrame.handshakeKind, let link = self.core.link(for: peer) else { return .refused }
        guard payload.count <= self.core.configuration.maximumPayloadSize else { return .tooLarge }
        guard !self.core.partitioned.withLock({ $0.contains(peer) }) else { return .partitioned }
        let (accepted, flushConnection) = link.enqueue(
            kind: kind, payload: payload, requireConnection: requireConnection)
        if let flushConnection { self.core.flush(connection: flushConnection, link: link) }
        if !accepted && requireConnection && !link.statistics.isConnected { return .disconnected }
        return accepted ? .queued : .dropped
    }

    /// Fault injection for partition tests and `scripts/cluster partition`: from now on frames to and from `peers`
    /// are dropped in both directions, as a network partition would drop them, while the connections stay up (so
    /// healing is immediate). Replaces any earlier partition.
    package func partition(from peers: Set<NodeID>) {
        self.core.partitioned.withLock { $0 = peers }
        self.core.log.warning("peer.partitioned", ["peers": peers.sorted().map(\.name).joined(separator: ",")])
    }

    /// Ends fault injection: frames flow to and from every peer again.
    package func heal() {
        self.core.partitioned.withLock { $0.removeAll() }
        self.core.log.warning("peer.healed")
    }

    /// The peers cut off by `partition(from:)`.
    package var partitionedPeers: Set<NodeID> { self.core.partitioned.withLock { $0 } }

    /// The peers added and not removed, sorted.
    package var peers: [NodeID] {
        self.core.links.withLock { Array($0.keys) }.sorted()
    }

    /// The counters of the link to `peer`, if it is known.
    package func statistics(for peer: NodeID) -> PeerLinkStatistics? {
        self.core.link(for: peer)?.statistics
    }

    /// Connections this node closed before their peer proved the cluster secret and its identity (a stranger, a node
    /// with another secret, cluster or release, a frame too large or out of turn, a handshake that timed out).
    package var refusedHandshakes: UInt64 { self.refusedHandshakesByReason.values.reduce(0, +) }

    /// `refusedHandshakes` by the refusal's code (`PeerFrameError.Code`: `authenticationFailed`,
    /// `releaseIncompatible`, …).
    package var refusedHandshakesByReason: [String: UInt64] { self.core.refusedHandshakes.withLock { $0 } }

    /// The counters of every link, by peer.
    package var statistics: [NodeID: PeerLinkStatistics] {
        self.core.links.withLock { $0 }.mapValues(\.statistics)
    }

    /// Stops accepting and dialing, flushes what the sockets hold within `gracePeriod`, and closes every connection.
    /// Frames still in the links' queues are dropped. Later calls return at once.
    package func shutdown(gracePeriod: Duration = .seconds(2)) async {
        do {
            try await self.loop.shutdown(gracePeriod: gracePeriod)
        } catch {
            self.core.log.error("peer.loop_failed", ["error": error.message])
        }
    }
}

extension PeerTransport {
    /// Sends a frame of one of the node's kinds; returns whether it was queued. A call that waits for an answer
    /// (`shardCall`) is refused at once while no connection to the peer is up, so its caller learns that nothing
    /// was sent instead of waiting out its timeout.
    package func send(_ payload: [UInt8], kind: PeerFrameKind, to peer: NodeID) -> Bool {
        self.send(payload, kind: kind.rawValue, to: peer, requireConnection: kind == .shardCall) == .queued
    }
}
