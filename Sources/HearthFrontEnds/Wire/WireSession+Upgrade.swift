import HearthCore
import HearthNet
import HearthSystem
import HearthWire

/// Moving a long-polling session onto a WebSocket (reference §1.4 `n`/`a`, §1.12).
///
/// The browser opens `/.ws?…&s=<session id>` as a secondary transport and pings it until healthy (answered here
/// with pongs), sends `a` on it, then `n` ("end of transmission") on the long poll and sends everything after on
/// the WebSocket. Data arriving on the WebSocket before the long poll's `n` is held, so messages are processed in
/// the order the client sent them, up to `maximumQueuedBytes` with the session's backlog and charged to the
/// WebSocket's share of the client memory budget. On `n` the server answers `n` on the long poll, closes it, and
/// from then on the WebSocket is the session's only transport; what the session holds (its listens and
/// onDisconnect operations) is charged to it from then on.
extension WireSession {
    /// Attaches the secondary WebSocket transport.
    func attachSecondary(_ transport: any WireTransport) {
        self.shared.withLock { $0.secondary = transport }
    }

    /// One frame on the secondary transport; the frames of a message in progress are charged to it, as on a
    /// session's own WebSocket.
    func receiveOnSecondary(frame: String) {
        let (result, held, frameTransport) = self.shared.withLock { shared in
            let before = shared.secondaryAssembler.heldBytes
            let result = Result { () throws(WireProtocolError) -> String? in
                try shared.secondaryAssembler.onFrame(frame)
            }
            return (result, shared.secondaryAssembler.heldBytes - before, shared.secondary)
        }
        self.charge(held, to: frameTransport)
        guard case .success(let message?) = result else {
            if case .failure(let error) = result { self.terminate(reason: error.message) }
            return
        }
        switch Result(catching: { () throws(WireClientMessage.DecodingError) in
            try WireClientMessage(decoding: message)
        }) {
        case .success(.control(let control)):
            if control == .ping { self.shared.withLock { $0.secondary }?.send(WireServerMessage.pong.encoded()) }
            return
        case .success(.request), .failure(.rejected):
            break
        case .failure(.malformed):
            self.terminate(reason: "The upgraded connection sent a message that is not a wire envelope.")
            return
        }
        let bytes = message.utf8.count
        let (secondary, isQueued) = self.shared.withLock { shared -> ((any WireTransport)?, Bool) in
            guard shared.isSwitched else {
                let backlog = shared.queuedBytes.addingReportingOverflow(shared.secondaryBufferBytes)
                guard !backlog.overflow, bytes <= self.context.maximumQueuedBytes - backlog.partialValue else {
                    return (nil, false)
                }
                shared.secondaryBuffer.append(message)
                shared.secondaryBufferBytes += bytes
                return (shared.secondary, true)
            }
            return (shared.secondary, self.enqueue(message, holding: &shared))
        }
        guard isQueued else { return self.terminateForBacklog() }
        // Released by `run()` once processed, through the transport of the moment: this one, after the switch.
        secondary?.holdInbound(bytes)
    }

    /// The long poll said `n`: switch to the secondary transport and release what it already received.
    func switchToSecondary() {
        let switched = self.shared.withLock {
            shared -> (old: (any WireTransport)?, new: any WireTransport, held: Int, isQueued: Bool)? in
            guard let secondary = shared.secondary, !shared.isSwitched else { return nil }
            let old = shared.transport
            shared.transport = secondary
            shared.isSwitched = true
            let buffered = shared.secondaryBuffer
            shared.secondaryBuffer = []
            shared.secondaryBufferBytes = 0
            var isQueued = true
            for message in buffered where isQueued {
                isQueued = self.enqueue(message, holding: &shared)
            }
            return (old, secondary, shared.heldBytes, isQueued)
        }
        guard let switched else { return }
        // Closing the long poll gives back what it was charged; the WebSocket now carries what the session holds.
        self.charge(switched.held, to: switched.new)
        if !switched.isQueued { self.terminateForBacklog() }
        guard let old = switched.old else { return }
        self.releaseDisconnectFrame()
        old.close(reason: "Upgraded to WebSocket.", after: WireOutbound(WireServerMessage.endOfTransmission.encoded()))
    }

    /// The secondary WebSocket closed: the session ends if it had switched to it, otherwise the upgrade is dropped.
    func secondaryClosed() {
        let isCurrent = self.shared.withLock { shared -> Bool in
            if !shared.isSwitched { shared.secondary = nil }
            return shared.isSwitched
        }
        if isCurrent { self.transportClosed() }
    }
}

/// The WebSocket side of an upgrade: forwards to the session's secondary-transport entry points.
struct WireUpgradeHandler: WebSocketMessageHandler {
    let session: WireSession

    func opened(_ socket: WebSocketConnection) {
        self.session.attachSecondary(WebSocketWireTransport(socket: socket))
    }

    func received(text: String) {
        self.session.receiveOnSecondary(frame: text)
    }

    func received(binary: [UInt8]) {
        self.session.terminate(reason: "Binary frames are not part of the Firebase protocol; send JSON text frames.")
    }

    func closed(code: UInt16?, reason: String) {
        self.session.secondaryClosed()
    }
}
