import HearthNet
import HearthSystem
import Synchronization

/// The state a `PeerTransport` shares with its connection handlers: who this node is, the links by peer, where
/// inbound frames go, and the event loop for messages to connections.
final class PeerTransportCore: Sendable {
    let configuration: PeerTransport.Configuration
    let log: Log
    let onFrame: PeerTransport.FrameHandler
    let links = Lock<[NodeID: PeerLink]>([:])
    /// Peers cut off by fault injection (`PeerTransport.partition`): frames to and from them are dropped.
    let partitioned = Lock<Set<NodeID>>([])
    /// Set once, right after the loop starts (handlers run only after that).
    let loop = Lock<EventLoop?>(nil)
    /// Answers nodes asking to join (`PeerTransport.setJoinHandler`); without one, such connections are refused.
    let joinHandler = Lock<LockedClosure<PeerTransport.JoinHandler>?>(nil)
    /// Told when the connection to a peer is lost (`PeerTransport.setDisconnectHandler`).
    let disconnectHandler = Lock<LockedClosure<@Sendable (NodeID) -> Void>?>(nil)
    /// Connections closed before their peer was verified: a wrong or missing proof, another cluster or version, an
    /// unknown node, a release the rule does not allow, a frame out of turn or too large, a handshake that timed out;
    /// by the refusal's code (`PeerFrameError.Code`).
    let refusedHandshakes = Lock<[String: UInt64]>([:])
    /// Leaves repeated refusals out of the log: a peer refused again and again is logged once per the dialers'
    /// longest back-off delay, with the number of refusals left out.
    private let refusalLog: Lock<RepeatedLogLimiter>

    init(configuration: PeerTransport.Configuration, log: Log, onFrame: @escaping PeerTransport.FrameHandler) {
        self.configuration = configuration
        self.log = log
        self.onFrame = onFrame
        self.refusalLog = Lock(RepeatedLogLimiter(interval: configuration.backoff.maximum))
    }

    /// Whether a refused handshake of `key` (who was refused, and why) should be logged: the number of identical
    /// refusals left out since the last logged one, or `nil` to leave this one out too.
    func admitRefusalLog(_ key: String) -> UInt64? {
        let now = MonotonicClock.now()
        return self.refusalLog.withLock { $0.admit(key, now: now) }
    }

    /// Hands an inbound frame on, unless its sender is cut off by fault injection.
    func deliver(_ kind: UInt8, _ payload: [UInt8], from peer: NodeID) {
        guard !self.partitioned.withLock({ $0.contains(peer) }) else { return }
        self.onFrame(peer, kind, payload)
    }

    /// Connection `id` of `link` is gone; when it was the link's current one, the disconnect handler hears of it.
    func detach(_ id: UInt64, from link: PeerLink) {
        if link.detach(id) { self.disconnectHandler.withLock { $0 }?.call(link.peer) }
    }

    func link(for peer: NodeID) -> PeerLink? {
        self.links.withLock { $0[peer] }
    }

    /// Asks connection `id` to close (a newer connection replaced it, or its peer was removed).
    func close(connection id: UInt64, reason: String) {
        self.loop.withLock { $0 }?.send(PeerCloseMessage(reason: reason), to: id)
    }

    /// Asks connection `id` to move its link's queued frames into the socket.
    func flush(connection id: UInt64, link: PeerLink) {
        guard let loop = self.loop.withLock({ $0 }) else {
            link.flushDiscarded()
            return
        }
        loop.send(PeerFlushMessage(link: link), to: id)
    }
}

/// Tells a peer connection's handler that its link has frames queued.
struct PeerFlushMessage: ConnectionMessage {
    let link: PeerLink

    func discard() {
        self.link.flushDiscarded()
    }
}

/// Tells a peer connection's handler to close.
struct PeerCloseMessage: ConnectionMessage {
    let reason: String

    func discard() {}
}

/// Hands a join request's answer to the connection that asked, which sends it and closes.
struct PeerJoinReplyMessage: ConnectionMessage {
    let reply: [UInt8]

    func discard() {}
}
