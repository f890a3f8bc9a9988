import Dispatch
package import HearthNet
import HearthSystem

/// Our own WebSocket client for plain `ws://`, over HearthNet's reactor: the `RealtimeTransport` that works
/// wherever Hearth builds, with no Foundation networking.
///
/// One dial per transport, on a shared `EventLoop` (one reactor thread for every connection of the process).
/// `WebSocketClientHandler` speaks the protocol on the reactor thread: the upgrade, checking the server's accept
/// key, unmasked frames in, masked frames out, pings answered, the close handshake. This object is the thread-safe
/// side the connection talks to: `send` masks a frame and hands it to the connection's `ConnectionWriter`.
package final class WebSocketTransport: RealtimeTransport {
    /// How long the TCP dial may take.
    package static let connectTimeout: Duration = .seconds(10)

    private let endpoint: RealtimeEndpoint
    private let target: String
    private let loop: @Sendable () throws(IOError) -> EventLoop
    private let state = Lock(State())

    private struct State {
        var events: (@Sendable (RealtimeTransportEvent) -> Void)?
        /// Set once the upgrade succeeded, until the transport closes.
        var writer: ConnectionWriter?
        var isCloseRequested = false
        var isFinished = false
        /// Each frame's masking key.
        var random = BufferedSystemRandom()
    }

    /// - Parameters:
    ///   - endpoint: the node; its `isSecure` must be false (use `URLSessionTransport` for `wss`).
    ///   - target: the request target, `/.ws?v=5&ns=…`.
    ///   - loop: the event loop to dial on; the process-wide one by default.
    package init(
        endpoint: RealtimeEndpoint,
        target: String,
        loop: @escaping @Sendable () throws(IOError) -> EventLoop = WebSocketTransport.sharedLoop
    ) {
        self.endpoint = endpoint
        self.target = target
        self.loop = loop
    }

    package func start(events: @escaping @Sendable (RealtimeTransportEvent) -> Void) {
        self.state.withLock { $0.events = events }
        guard !self.endpoint.isSecure else {
            self.finish(
                RealtimeConnectionError(
                    .unsupported, "Our WebSocket client speaks plain ws:// only; use URLSessionTransport for wss://.")
            )
            return
        }
        guard HostResolver.needsLookup(self.endpoint.host) else {
            self.dial()
            return
        }
        DispatchQueue.global().async { self.dial() }
    }

    package func send(text: String) {
        self.state.withLock { state in
            guard !state.isCloseRequested, let writer = state.writer else { return }
            writer.write(
                WebSocketFrameEncoder.encodeFrame(
                    .text, payload: text.utf8, maskingKey: WebSocketMaskingKey(using: &state.random)))
        }
    }

    package func close() {
        self.state.withLock { state in
            guard !state.isCloseRequested else { return }
            state.isCloseRequested = true
            state.writer?.write(
                WebSocketFrameEncoder.encodeFrame(
                    .close,
                    payload: WebSocketFrameEncoder.closePayload(code: WebSocketCloseCode.normalClosure, reason: ""),
                    maskingKey: WebSocketMaskingKey(using: &state.random)))
            state.writer?.close()
        }
    }

    /// Resolves the host and dials; the handler takes it from there.
    private func dial() {
        guard !self.state.withLock({ $0.isCloseRequested }) else {
            self.finish(nil)
            return
        }
        do throws(RealtimeConnectionError) {
            let address = try HostResolver.address(host: self.endpoint.host, port: self.endpoint.port)
            let loop: EventLoop
            do {
                loop = try self.loop()
            } catch {
                throw RealtimeConnectionError(.connectionFailed, "No event loop to dial on: \(error.message)")
            }
            loop.connect(to: address, timeout: Self.connectTimeout) {
                WebSocketClientHandler(transport: self, endpoint: self.endpoint, target: self.target)
            }
        } catch {
            self.finish(error)
        }
    }

    /// Whether `close()` was called (the handler then closes the connection as soon as it has one).
    var isCloseRequested: Bool {
        self.state.withLock { $0.isCloseRequested }
    }

    /// The upgrade succeeded: frames may flow through `writer`. Returns `false` when the transport was closed
    /// meanwhile, and the handler must close the connection.
    func opened(writer: ConnectionWriter) -> Bool {
        let events: (@Sendable (RealtimeTransportEvent) -> Void)? = self.state.withLock { state in
            guard !state.isFinished, !state.isCloseRequested else { return nil }
            state.writer = writer
            return state.events
        }
        guard let events else { return false }
        events(.opened)
        return true
    }

    /// A text frame arrived.
    func received(text: String) {
        let events = self.state.withLock { $0.isFinished ? nil : $0.events }
        events?(.text(text))
    }

    /// The transport is gone; reports `closed` once.
    func finish(_ error: RealtimeConnectionError?) {
        let events: (@Sendable (RealtimeTransportEvent) -> Void)? = self.state.withLock { state in
            guard !state.isFinished else { return nil }
            state.isFinished = true
            state.writer = nil
            let events = state.events
            state.events = nil
            return events
        }
        events?(.closed(error))
    }

    private static let shared = Lock<EventLoop?>(nil)

    /// The process-wide event loop for client WebSockets, started on first use and kept for the process's life.
    package static func sharedLoop() throws(IOError) -> EventLoop {
        try Self.shared.withLock { (loop: inout EventLoop?) throws(IOError) -> EventLoop in
            if let loop { return loop }
            let started = try EventLoop()
            loop = started
            return started
        }
    }
}
