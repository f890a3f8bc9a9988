import Dispatch
import HearthCore
import HearthSystem

/// One server-side WebSocket: the shell that joins the pure frame parser and close state machine to a socket.
///
/// It is the `UpgradedConnectionHandler` the HTTP server drives after a `101`. Inbound bytes go through a
/// `WebSocketFrameParser`; whole messages go to the `WebSocketMessageHandler`, pings are answered with pongs at
/// once, and protocol errors fail the connection with their close code. Outbound frames go through the
/// connection's `ConnectionWriter`, which is thread-safe and bounded: when a write overflows it the client is cut
/// off and every later send returns `false`.
///
/// Thread safety: a small lock guards the parser and the close state machine. Data frames go straight to the
/// writer, without the lock (many threads may send at once, and the reactor parses under the lock); the close frame
/// is the writer's last message (`ConnectionWriter.writeLast`), so nothing follows it, whichever thread sends.
/// Handler callbacks run after the lock is released, only ever on the reactor thread (`start`, `received`,
/// `connectionClosed`), so the handler may call `send` or `close` from inside them. The handler is released once
/// `closed` has been delivered, so it may keep a strong reference to its socket without leaking either.
public final class WebSocketConnection: UpgradedConnectionHandler {
    /// How long a server-initiated close waits for the peer's close frame before dropping the socket.
    public static let defaultCloseTimeout: Duration = .seconds(5)

    private let closeTimeout: Duration
    private let shared: Lock<Shared>
    /// The connection's writer, set once when the server starts the connection (read for every message sent, so one
    /// atomic load: `OnceReference`).
    private let writerReference = OnceReference<ConnectionWriter>()

    /// The state behind the lock.
    private struct Shared {
        /// Released once it has heard `closed`, which breaks the cycle when the handler keeps its socket.
        var handler: (any WebSocketMessageHandler)?
        var parser: WebSocketFrameParser
        var closeMachine = WebSocketCloseStateMachine()
    }

    /// What to tell the handler once the lock is released.
    private enum Delivery: Sendable {
        case text(String)
        /// A text message still in the parser's input (`WebSocketFrameParser.nextInbound()`), handed over as bytes.
        case textInPlace(WebSocketTextInPlace)
        case binary([UInt8])
        case closed(code: UInt16?, reason: String)
    }

    /// What one call tells the handler, in order: nearly always one message or nothing, which takes no array (one
    /// allocation fewer per read).
    private struct Deliveries {
        private var first: Delivery?
        private var rest: [Delivery] = []

        mutating func append(_ delivery: Delivery) {
            if self.first == nil { self.first = delivery } else { self.rest.append(delivery) }
        }

        mutating func append(contentsOf deliveries: Deliveries) {
            deliveries.forEach { self.append($0) }
        }

        func forEach(_ body: (Delivery) -> Void) {
            guard let first = self.first else { return }
            body(first)
            self.rest.forEach(body)
        }
    }

    /// - Parameters:
    ///   - handler: receives the messages and the close.
    ///   - maximumMessageBytes: larger messages fail the connection with 1009.
    ///   - closeTimeout: how long `close(code:reason:)` waits for the peer's close frame.
    public init(
        handler: any WebSocketMessageHandler,
        maximumMessageBytes: Int = WebSocketFrameParser.defaultMaximumMessageBytes,
        closeTimeout: Duration = WebSocketConnection.defaultCloseTimeout
    ) {
        self.closeTimeout = closeTimeout
        let parser = WebSocketFrameParser(maximumMessageBytes: maximumMessageBytes)
        self.shared = Lock(Shared(handler: handler, parser: parser))
    }

    /// The underlying connection's identifier, once the server has started it.
    public var connectionID: UInt64? {
        self.writer?.id
    }

    /// Whether messages can still be sent: started, no close frame sent or received, and not cut off.
    public var isOpen: Bool {
        guard let writer = self.writer else { return false }
        return self.shared.withLock { $0.closeMachine.canSendData } && !writer.isClosed
    }

    /// Sends one text message as a single frame. O(n) in its UTF-8 length.
    ///
    /// - Returns: `false` when the WebSocket is closing or closed, or when this write overflowed the outbound bound
    ///   (which cuts the client off).
    @discardableResult
    public func send(text: String) -> Bool {
        self.sendData(WebSocketFrameEncoder.encodeText(text))
    }

    /// Sends frames already encoded by `WebSocketFrameEncoder` (unmasked, as a server sends), as they are and
    /// together, with no other sender's frame between them: many connections can then queue one shared buffer, and
    /// the frames of one application message stay in one piece. Same result as `send(text:)`.
    @discardableResult
    public func send(encodedFrames frames: [[UInt8]]) -> Bool {
        self.writer?.write(contentsOf: frames) ?? false
    }

    /// Sends one frame already encoded by `WebSocketFrameEncoder`, as it is (no array of frames made for it).
    @discardableResult
    public func send(encodedFrame frame: [UInt8]) -> Bool {
        self.sendData(frame)
    }

    /// Sends one binary message as a single frame; same result as `send(text:)`.
    @discardableResult
    public func send(binary: [UInt8]) -> Bool {
        self.sendData(WebSocketFrameEncoder.encodeBinary(binary))
    }

    /// Sends a ping (for liveness checks; the peer answers with a pong). Payloads beyond 125 bytes are cut.
    @discardableResult
    public func sendPing(_ payload: [UInt8] = []) -> Bool {
        self.sendData(WebSocketFrameEncoder.encodePing(payload))
    }

    /// Says goodbye with 1001 ("going away") so clients know to reconnect rather than report an error.
    public func serverShuttingDown() {
        self.close(code: WebSocketCloseCode.goingAway, reason: "The server is shutting down.")
    }

    public var isMidMessage: Bool {
        self.shared.withLock { $0.parser.isMidMessage }
    }

    /// Closes with 1008 (policy violation): a frame that never completes would hold its buffer for ever.
    public func inputTooSlow(_ rate: MinimumDataRate) {
        self.close(
            code: WebSocketCloseCode.policyViolation,
            reason: "A message arrived slower than \(rate.bytesPerSecond) bytes/s; send each one promptly.")
    }

    /// Evicted to protect the node's memory: says goodbye with 1008 (policy violation) and the reason, after the
    /// message in progress; clients reconnect. No data frame follows.
    public func evicted(reason: ConnectionEviction) {
        self.withShared { shared in
            self.perform(
                shared.closeMachine.onCloseRequested(
                    code: WebSocketCloseCode.policyViolation, reason: reason.description),
                on: &shared, asFarewell: true)
        }
    }

    /// Charges (or, negative, releases) received bytes the application holds for this client to the node's client
    /// memory budget (`ConnectionWriter.holdInbound`).
    public func holdInbound(_ delta: Int) {
        self.writer?.holdInbound(delta)
    }

    public var heldInboundBytes: Int {
        self.shared.withLock { $0.parser.heldByteCount }
    }

    /// Starts the close handshake: sends a close frame, stops delivering messages, and drops the socket when the
    /// peer answers or `closeTimeout` passes. The handler's `closed` follows once the connection is gone. Later
    /// calls do nothing. Codes that may not travel (1005, 1006, 1015…) send a close frame without a code.
    public func close(code: UInt16 = WebSocketCloseCode.normalClosure, reason: String = "") {
        self.withShared { shared in
            self.perform(shared.closeMachine.onCloseRequested(code: code, reason: reason), on: &shared)
        }
    }

    public func start(_ writer: ConnectionWriter) {
        self.writerReference.storeIfNil(writer)
        let handler = self.shared.withLock { $0.handler }
        handler?.opened(self)
    }

    public func received(_ bytes: UnsafeRawBufferPointer) {
        _ = self.receivedHolding(bytes)
    }

    /// Parses the bytes and reads what the parser then holds in the same hold of the lock.
    public func receivedHolding(_ bytes: UnsafeRawBufferPointer) -> UpgradedInboundState {
        var inbound = UpgradedInboundState(heldBytes: 0, isMidMessage: false)
        self.withShared { shared in
            shared.parser.append(bytes)
            let deliveries = self.drainParser(&shared)
            inbound = UpgradedInboundState(
                heldBytes: shared.parser.heldByteCount, isMidMessage: shared.parser.isMidMessage)
            return deliveries
        }
        return inbound
    }

    public func connectionClosed() {
        self.withShared { shared in
            self.perform(shared.closeMachine.onConnectionClosed(), on: &shared)
        }
    }

    /// Runs `body` under the lock, then tells the handler what it returned, in order, after the lock is released.
    /// The handler is let go of as soon as `closed` is on its way to it.
    private func withShared(_ body: (inout Shared) -> Deliveries) {
        let (handler, deliveries) = self.shared.withLock { shared in
            let handler = shared.handler
            let deliveries = body(&shared)
            if shared.closeMachine.state == .closed {
                shared.handler = nil
            }
            return (handler, deliveries)
        }
        guard let handler else { return }
        deliveries.forEach { delivery in
            switch delivery {
            case .text(let text): handler.received(text: text)
            case .textInPlace(let text): text.withUTF8 { handler.received(utf8Text: $0) }
            case .binary(let bytes): handler.received(binary: bytes)
            case .closed(let code, let reason): handler.closed(code: code, reason: reason)
            }
        }
    }

    /// Pulls every complete event out of the parser and acts on it. Called with the lock held.
    private func drainParser(_ shared: inout Shared) -> Deliveries {
        var deliveries = Deliveries()
        while true {
            let event: WebSocketEvent
            do {
                switch try shared.parser.nextInbound() {
                case nil: return deliveries
                case .textInPlace(let text)?:
                    if shared.closeMachine.canSendData { deliveries.append(.textInPlace(text)) }
                    continue
                case .event(let next)?: event = next
                }
            } catch {
                deliveries.append(contentsOf: self.perform(shared.closeMachine.onProtocolError(error), on: &shared))
                return deliveries
            }
            let isOpen = shared.closeMachine.canSendData
            switch event {
            case .text(let text):
                if isOpen { deliveries.append(.text(text)) }
            case .binary(let bytes):
                if isOpen { deliveries.append(.binary(bytes)) }
            case .ping(let payload):
                if isOpen { self.writer?.write(WebSocketFrameEncoder.encodePong(payload)) }
            case .pong:
                break
            case .close(let code, let reason):
                deliveries.append(
                    contentsOf: self.perform(shared.closeMachine.onPeerClose(code: code, reason: reason), on: &shared))
            }
        }
    }

    /// Writes a data or ping frame unless the close frame has been sent (the writer then refuses it).
    private func sendData(_ frame: [UInt8]) -> Bool {
        self.writer?.write(frame) ?? false
    }

    private var writer: ConnectionWriter? { self.writerReference.load() }

    /// Carries out close state machine actions; returns what the handler must hear. Called with the lock held.
    /// - Parameter asFarewell: the close frame is an eviction's goodbye, written past the refusal of other writes.
    private func perform(
        _ actions: [WebSocketCloseStateMachine.Action], on shared: inout Shared, asFarewell: Bool = false
    ) -> Deliveries {
        var deliveries = Deliveries()
        for action in actions {
            switch action {
            case .sendClose(let code, let reason):
                let frame = WebSocketFrameEncoder.encodeClose(code: code, reason: reason)
                if asFarewell { self.writer?.writeFarewell(frame) } else { self.writer?.writeLast(frame) }
            case .startCloseTimer:
                self.startCloseTimer()
            case .closeConnection:
                self.writer?.close()
            case .notifyClosed(let code, let reason):
                deliveries.append(.closed(code: code, reason: reason))
            }
        }
        return deliveries
    }

    /// Drops the socket if the peer has not answered our close in time. The timer only closes the writer; the
    /// reactor then reports `connectionClosed`, so the handler still hears everything on the reactor thread.
    private func startCloseTimer() {
        let components = self.closeTimeout.components
        let nanoseconds = components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) { [weak self] in
            self?.closeTimerFired()
        }
    }

    private func closeTimerFired() {
        self.withShared { shared in
            self.perform(shared.closeMachine.onCloseTimeout(), on: &shared)
        }
    }
}
