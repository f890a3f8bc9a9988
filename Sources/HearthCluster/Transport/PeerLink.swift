import HearthNet
import HearthSystem

/// Everything the transport keeps for one peer, shared between senders on any thread and the connection's handler on
/// the reactor thread: the bounded queue of encoded frames waiting for the connection, which connection is current,
/// and the counters.
///
/// Senders append whole frames to one byte buffer, so the handler moves everything queued into the socket's queue in
/// one piece (one `write` per reactor turn). When the buffer would exceed `limit`, the new frame is dropped and
/// counted; Raft and SWIM treat a dropped frame like a lost packet.
final class PeerLink: Sendable {
    private struct State {
        var pending: [UInt8] = []
        var pendingFrames = 0
        /// The connection past its handshake, if any.
        var connectionID: UInt64?
        /// A flush message is on its way to the connection, or its retry timer is set.
        var isFlushScheduled = false
        var statistics = PeerLinkStatistics()
        var dialer: Dialer?
        var isRemoved = false
    }

    let peer: NodeID
    let address: SocketAddress
    private let limit: Int
    private let state = Lock(State())

    init(peer: NodeID, address: SocketAddress, limit: Int) {
        self.peer = peer
        self.address = address
        self.limit = limit
    }

    var statistics: PeerLinkStatistics {
        self.state.withLock { state in
            var statistics = state.statistics
            statistics.queuedBytes = state.pending.count
            statistics.isConnected = state.connectionID != nil
            return statistics
        }
    }

    /// Queues one frame. Returns whether it was accepted, and the connection to send a flush message to.
    /// - Parameter requireConnection: refuse the frame (uncounted) when no connection is up.
    func enqueue(kind: UInt8, payload: [UInt8], requireConnection: Bool = false)
        -> (accepted: Bool, flushConnection: UInt64?)
    {
        self.state.withLock { state in
            if requireConnection && state.connectionID == nil { return (false, nil) }
            guard !state.isRemoved, state.pending.count + PeerFrame.headerSize + payload.count <= self.limit else {
                state.statistics.framesDropped += 1
                return (false, nil)
            }
            PeerFrame.append(kind: kind, payload: payload, to: &state.pending)
            state.pendingFrames += 1
            guard let connectionID = state.connectionID, !state.isFlushScheduled else { return (true, nil) }
            state.isFlushScheduled = true
            return (true, connectionID)
        }
    }

    /// Reactor-side: everything queued, counted as sent; clears the scheduled flag.
    func takePending() -> [UInt8] {
        self.state.withLock { state in
            state.isFlushScheduled = false
            let bytes = state.pending
            state.statistics.framesSent += UInt64(state.pendingFrames)
            state.statistics.bytesSent += UInt64(bytes.count)
            state.pending = []
            state.pendingFrames = 0
            return bytes
        }
    }

    /// Reactor-side: the flush waits for the socket to drain; sends do not need to ask again meanwhile.
    func markFlushScheduled() {
        self.state.withLock { $0.isFlushScheduled = true }
    }

    /// A flush message could not be delivered (its connection is gone).
    func flushDiscarded() {
        self.state.withLock { $0.isFlushScheduled = false }
    }

    /// Reactor-side: `connectionID` passed its handshake, with the peer announcing `release`, and carries the peer's
    /// frames from now on. Returns the connection it replaces, which the caller closes.
    func attach(_ connectionID: UInt64, release: HearthRelease) -> UInt64? {
        self.state.withLock { state in
            let previous = state.connectionID
            state.connectionID = connectionID
            state.isFlushScheduled = false
            state.statistics.connectionsEstablished += 1
            state.statistics.release = release
            return previous == connectionID ? nil : previous
        }
    }

    /// Reactor-side: `connectionID` closed; the link waits for the next one unless another is already current.
    /// - Returns: true when it was the current connection (the peer is now unconnected).
    func detach(_ connectionID: UInt64) -> Bool {
        self.state.withLock { state in
            guard state.connectionID == connectionID else { return false }
            state.connectionID = nil
            state.isFlushScheduled = false
            return true
        }
    }

    func received(bytes: Int) {
        self.state.withLock { state in
            state.statistics.framesReceived += 1
            state.statistics.bytesReceived += UInt64(bytes)
        }
    }

    func handshakeFailed() {
        self.state.withLock { $0.statistics.handshakeFailures += 1 }
    }

    /// Keeps the dialer that reconnects this link (only the side with the lower id dials).
    func setDialer(_ dialer: Dialer) {
        self.state.withLock { $0.dialer = dialer }
    }

    /// Refuses further frames and stops dialing; returns the current connection, which the caller closes.
    func remove() -> UInt64? {
        let (dialer, connectionID) = self.state.withLock { state in
            state.isRemoved = true
            state.pending = []
            state.pendingFrames = 0
            defer { state.dialer = nil }
            return (state.dialer, state.connectionID)
        }
        dialer?.stop()
        return connectionID
    }
}
