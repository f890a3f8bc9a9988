import HearthNet
import HearthSystem

/// The reactor-side half of a `WebSocketTransport`: one client WebSocket on one dialed connection.
///
/// It sends the upgrade request, checks the answer (`WebSocketClientHandshake`), then parses the server's frames
/// (which must be unmasked) and masks every frame it sends. Pings are answered at once; a close frame is echoed and
/// the socket closed; a protocol error closes with its code. The transport hears `opened`, each text frame, and
/// `closed` once with the reason. Confined to the reactor thread, like every `ConnectionHandler`.
final class WebSocketClientHandler: ConnectionHandler {
    private let transport: WebSocketTransport
    private let endpoint: RealtimeEndpoint
    private let target: String
    private let key: String
    private var head: [UInt8] = []
    private var isUpgraded = false
    private var parser = WebSocketFrameParser(expectsMaskedFrames: false)
    private var closeMachine = WebSocketCloseStateMachine()
    /// Why the connection is being closed, when it is our decision.
    private var failure: RealtimeConnectionError?
    private var random = BufferedSystemRandom()

    init(transport: WebSocketTransport, endpoint: RealtimeEndpoint, target: String) {
        self.transport = transport
        self.endpoint = endpoint
        self.target = target
        self.key = WebSocketClientHandshake.makeKey(using: &self.random)
    }

    func connectionOpened(_ connection: Connection) {
        guard !self.transport.isCloseRequested else {
            connection.close()
            return
        }
        connection.enqueue(
            WebSocketClientHandshake.request(target: self.target, host: self.endpoint.authority, key: self.key))
        connection.flush()
    }

    func connectFailed(_ error: IOError) {
        self.transport.finish(
            RealtimeConnectionError(.connectionFailed, "Could not connect to \(self.endpoint): \(error.message)"))
    }

    func received(_ bytes: UnsafeRawBufferPointer, on connection: Connection) {
        guard self.isUpgraded else {
            self.head.append(contentsOf: bytes)
            self.upgrade(connection)
            return
        }
        self.parser.append(bytes)
        self.readFrames(connection)
    }

    func connectionClosed(_ connection: Connection, error: IOError?) {
        let reason =
            self.failure
            ?? error.map {
                RealtimeConnectionError(.connectionFailed, "The connection to \(self.endpoint) failed: \($0.message)")
            }
            ?? (self.isUpgraded
                ? nil
                : RealtimeConnectionError(
                    .webSocketFailed, "\(self.endpoint) closed the connection before the WebSocket upgrade finished."))
        self.transport.finish(reason)
    }

    /// Checks the response head once it is complete; the bytes after it are the first frames.
    private func upgrade(_ connection: Connection) {
        guard let length = WebSocketClientHandshake.headLength(in: self.head) else {
            if self.head.count > WebSocketClientHandshake.maximumHeadBytes {
                self.fail(connection, "\(self.endpoint) sent an answer to the upgrade with no end to its head.")
            }
            return
        }
        do {
            try WebSocketClientHandshake.check(head: Array(self.head[..<length]), key: self.key)
        } catch {
            self.fail(connection, error.message)
            return
        }
        self.isUpgraded = true
        let rest = self.head[length...]
        self.head = []
        guard self.transport.opened(writer: connection.writer) else {
            connection.close()
            return
        }
        self.parser.append(rest)
        self.readFrames(connection)
    }

    private func readFrames(_ connection: Connection) {
        while !connection.isClosed {
            let event: WebSocketEvent?
            do {
                event = try self.parser.nextEvent()
            } catch {
                self.failure = RealtimeConnectionError(
                    .webSocketFailed, "\(self.endpoint) broke the WebSocket protocol: \(error.message)")
                self.perform(self.closeMachine.onProtocolError(error), on: connection)
                return
            }
            guard let event else { return }
            switch event {
            case .text(let text):
                self.transport.received(text: text)
            case .binary:
                break
            case .ping(let payload):
                guard self.closeMachine.canSendData else { continue }
                connection.enqueue(self.frame(.pong, payload))
                connection.flush()
            case .pong:
                break
            case .close(let code, let reason):
                if let code, code != WebSocketCloseCode.normalClosure, code != WebSocketCloseCode.goingAway {
                    self.failure = RealtimeConnectionError(
                        .connectionFailed, "\(self.endpoint) closed the WebSocket with \(code) \(reason).")
                }
                self.perform(self.closeMachine.onPeerClose(code: code, reason: reason), on: connection)
            }
        }
    }

    private func perform(_ actions: [WebSocketCloseStateMachine.Action], on connection: Connection) {
        for action in actions {
            switch action {
            case .sendClose(let code, let reason):
                connection.enqueue(self.frame(.close, WebSocketFrameEncoder.closePayload(code: code, reason: reason)))
            case .closeConnection:
                connection.closeAfterFlush()
            case .startCloseTimer, .notifyClosed:
                break
            }
        }
    }

    private func fail(_ connection: Connection, _ message: String) {
        self.failure = RealtimeConnectionError(.webSocketFailed, message)
        connection.close()
    }

    private func frame(_ opcode: WebSocketOpcode, _ payload: [UInt8]) -> [UInt8] {
        WebSocketFrameEncoder.encodeFrame(
            opcode, payload: payload, maskingKey: WebSocketMaskingKey(using: &self.random))
    }
}
