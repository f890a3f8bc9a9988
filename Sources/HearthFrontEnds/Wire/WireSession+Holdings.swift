import HearthCore
import HearthWire

/// What a session keeps for its client between messages — its listens and its onDisconnect operations — is capped
/// per session and charged to the node's client memory budget through the transport, so the budget's eviction sees
/// a client that grows them (a long-polling transport charges its own pool, `WireLongPollMemory`). When a session
/// moves from long polling to a WebSocket, everything it holds is charged there (`WireSession+Upgrade`).
extension WireSession {
    /// What one listen is charged: its path plus what a listen costs the node beyond it (the listen, its place in
    /// the view's registry and in the session's table), measured at about 1.2 KB.
    static func heldBytes(listenAt path: Path) -> Int {
        1200 + path.description.utf8.count
    }

    /// What one onDisconnect operation is charged: its path, a fixed cost, and its values' JSON size, counted no
    /// further than `limit` (so a huge value is measured cheaply; it is refused anyway).
    static func heldBytes(path: Path, mutations: [Mutation], upTo limit: Int) -> Int {
        var total = 256 + path.description.utf8.count
        for mutation in mutations where total <= limit {
            switch mutation {
            case .set(let at, let value), .setPriority(let at, let value):
                total += at.description.utf8.count + value.node.estimatedBytes(upTo: limit - total + 1)
            }
        }
        return total
    }

    /// Records that the session holds `delta` more (negative: fewer) bytes for its client, while the caller holds
    /// `shared`; returns the transport to charge once the lock is released (`charge(_:to:)`).
    func hold(_ delta: Int, holding shared: inout Shared) -> (any WireTransport)? {
        shared.heldBytes += delta
        return shared.transport
    }

    /// Charges `delta` bytes to `transport`'s client memory budget, outside the session's lock.
    func charge(_ delta: Int, to transport: (any WireTransport)?) {
        guard delta != 0 else { return }
        transport?.holdInbound(delta)
    }
}
