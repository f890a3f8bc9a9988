import HearthNet
import HearthWire

/// Where a wire session's outbound messages go: a WebSocket, or a long-polling channel (reference §1.12).
///
/// `send` must queue the whole message atomically and in call order, whichever thread calls it: data pushes come
/// from the commit thread while responses come from the session's task, and both must share one FIFO so a listen's
/// data always precedes a write's `ok`. It must never block.
protocol WireTransport: AnyObject, Sendable {
    /// Queues one message; `false` when the transport is closed or was cut off for not reading.
    @discardableResult
    func send(_ message: WireOutbound) -> Bool
    /// Encodes and queues one server message made for this transport alone (a response: every write's answer);
    /// `false` as for `send(_:)`.
    @discardableResult
    func send(_ message: WireServerMessage) -> Bool
    /// Queues the acknowledgement of write `id` (`ok`, no data): what `send(.response(id: id, .okEmpty))` queues;
    /// `false` as for `send(_:)`.
    @discardableResult
    func sendAcknowledgement(id: Int64) -> Bool
    /// Closes the transport, telling the client why when the transport can carry a reason.
    func close(reason: String)
    /// Queues `last` and closes the transport in one step, so the client gets the message and the close together:
    /// a long poll collected between the two would otherwise answer with the message alone.
    func close(reason: String, after last: WireOutbound)
    /// Closes the transport because the node is stopping (WebSocket: 1001 "going away"); clients reconnect.
    func closeForShutdown()
    /// A liveness probe (WebSocket ping); transports without one do nothing.
    func ping()
    /// Charges (or, negative, releases) bytes the session holds for its client (received messages, listens,
    /// onDisconnect operations) to the node's client memory budget, or for long polling to its own pool
    /// (`WireLongPollMemory`).
    func holdInbound(_ delta: Int)
}

extension WireTransport {
    func holdInbound(_ delta: Int) {}

    /// A transport whose sends and close share one ordered stream (a WebSocket's frames) needs nothing more.
    func close(reason: String, after last: WireOutbound) {
        self.send(last)
        self.close(reason: reason)
    }

    /// Queues one message made for this transport alone.
    @discardableResult
    func send(_ message: [UInt8]) -> Bool {
        self.send(WireOutbound(message))
    }

    /// A transport with no cheaper way queues the message's bytes.
    @discardableResult
    func send(_ message: WireServerMessage) -> Bool {
        self.send(message.encoded())
    }

    /// A transport with no cheaper way queues the acknowledgement as any response.
    @discardableResult
    func sendAcknowledgement(id: Int64) -> Bool {
        self.send(WireServerMessage.response(id: id, .okEmpty))
    }
}

/// A wire transport over one WebSocket: each message is split into count-prefixed frames (§1.2), queued in one
/// step, so concurrent senders never interleave frames.
final class WebSocketWireTransport: WireTransport {
    private let socket: WebSocketConnection

    init(socket: WebSocketConnection) {
        self.socket = socket
    }

    func send(_ message: WireOutbound) -> Bool {
        guard let frames = message.webSocketFrames else {
            self.close(reason: "A message was too large to send; request a location with less data.")
            return false
        }
        return self.socket.send(encodedFrames: frames)
    }

    /// Encoded into its frame and queued as that one array, when it fits one frame: the message's bytes, a
    /// `WireOutbound` holding them with their frame, and the list of its frames were four allocations for each
    /// write's answer (a committed write's goes through `sendAcknowledgement(id:)`). A longer message goes as any
    /// other.
    func send(_ message: WireServerMessage) -> Bool {
        let frame = WebSocketFrameEncoder.encodeText { message.encode(into: &$0) }
        // Header and payload within the one-frame bound, so surely the payload is (a message near the bound is
        // encoded again and goes the general way, which frames it the same).
        guard frame.count <= WireFrameSplitter.maximumFrameBytes else {
            return self.send(WireOutbound(message.encoded()))
        }
        return self.socket.send(encodedFrame: frame)
    }

    /// Written into its frame, allocated once at its size, from its fixed pieces and the id
    /// (`WireServerMessage.writeAcknowledgement`): no server message is made, copied and destroyed for it, and no
    /// array grown. Its at most 62 bytes make one short frame.
    func sendAcknowledgement(id: Int64) -> Bool {
        let frame = WebSocketFrameEncoder.encodeShortText(capacity: WireServerMessage.maximumAcknowledgementBytes) {
            WireServerMessage.writeAcknowledgement(id: id, to: $0)
        }
        return self.socket.send(encodedFrame: frame)
    }

    func close(reason: String) {
        self.socket.close(code: WebSocketCloseCode.normalClosure, reason: reason)
    }

    func closeForShutdown() {
        self.socket.close(code: WebSocketCloseCode.goingAway, reason: "The server is shutting down.")
    }

    func ping() {
        self.socket.sendPing()
    }

    func holdInbound(_ delta: Int) {
        self.socket.holdInbound(delta)
    }
}
