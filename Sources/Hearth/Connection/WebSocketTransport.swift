import Dispatch
import Glibc
package import HearthNet
import HearthSystem

/// Our own WebSocket client for plain `ws://`, over HearthNet's reactor: the `RealtimeTransport` that works
/// wherever Hearth builds, with no Foundation networking.
///
/// One dial per transport, on one of the process's shared client `EventLoop`s (a reactor thread each, one per core).
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

    /// The process's client event loops, started on first use and kept for the process's life, and which one the
    /// next transport dials on.
    private static let shared = Lock<(loops: [EventLoop], next: Int)>(([], 0))

    /// How many client event loops a process runs: one per core, up to four. A connection's machine runs on its
    /// loop's thread (`InlineQueue`), so with one loop every frame of every connection — a transaction's listeners
    /// each parsing the whole post pushed after every commit — waited for one core.
    static let sharedLoopCount = min(4, max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))

    /// An event loop for a client WebSocket: the process's loops in turn, each started on first use.
    package static func sharedLoop() throws(IOError) -> EventLoop {
        try Self.shared.withLock { (shared: inout (loops: [EventLoop], next: Int)) throws(IOError) -> EventLoop in
            let index = shared.next % Self.sharedLoopCount
            shared.next = index + 1
            if index < shared.loops.count { return shared.loops[index] }
            let started = try EventLoop()
            shared.loops.append(started)
            return started
        }
    }
}
