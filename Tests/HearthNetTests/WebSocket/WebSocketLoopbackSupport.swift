import HearthNet
import HearthTestKit
import Synchronization

/// A message handler that logs every callback and can echo text back or close on request.
final class RecordingMessageHandler: WebSocketMessageHandler {
    let log = EventLog()
    private let socket = Mutex<WebSocketConnection?>(nil)
    private let isEcho: Bool
    private let pingsOnOpen: Bool

    init(isEcho: Bool = false, pingsOnOpen: Bool = false) {
        self.isEcho = isEcho
        self.pingsOnOpen = pingsOnOpen
    }

    func opened(_ socket: WebSocketConnection) {
        self.socket.withLock { $0 = socket }
        self.log.append("opened")
        if self.pingsOnOpen { socket.sendPing(Array("server".utf8)) }
    }

    func received(text: String) {
        self.log.append("text:\(text)")
        guard self.isEcho, let socket = self.socket.withLock({ $0 }) else { return }
        if text.hasPrefix("close:") {
            socket.close(code: 4000, reason: String(text.dropFirst(6)))
            self.log.append("sendAfterClose:\(socket.send(text: "late"))")
        } else {
            socket.send(text: text)
        }
    }

    func received(binary: [UInt8]) {
        self.log.append("binary:\(binary.count)")
        guard self.isEcho, let socket = self.socket.withLock({ $0 }) else { return }
        socket.send(binary: binary)
    }

    func closed(code: UInt16?, reason: String) {
        self.log.append("closed:\(code.map(String.init) ?? "nil"):\(reason)")
    }
}

/// A frame as the test client read it.
struct ReceivedFrame: Equatable {
    var opcode: WebSocketOpcode?
    var isFinal: Bool
    var payload: [UInt8]

    var text: String { String(decoding: self.payload, as: UTF8.self) }
    /// The code of a close frame.
    var closeCode: UInt16? {
        self.payload.count >= 2 ? UInt16(self.payload[0]) << 8 | UInt16(self.payload[1]) : nil
    }
}

/// A blocking WebSocket client over `TestHTTPClient`: upgrades, sends masked frames, reads server frames.
final class TestWebSocketClient {
    let http: TestHTTPClient
    private var random = SeededRandom(seed: 6455)

    /// Connects and upgrades; throws unless the server answers 101 with the right accept key.
    init(port: Int, key: String = "dGhlIHNhbXBsZSBub25jZQ==") throws {
        self.http = try TestHTTPClient(port: port)
        try self.http.send(
            "GET /.ws?v=5&ns=test HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        let head = String(decoding: try self.http.readUntil("\r\n\r\n".utf8), as: UTF8.self)
        let accept = WebSocketHandshake.acceptValue(forKey: key)
        guard head.hasPrefix("HTTP/1.1 101 "), head.contains("Sec-WebSocket-Accept: \(accept)\r\n") else {
            throw TestClientError(description: "bad upgrade response: \(head)")
        }
    }

    func send(_ opcode: WebSocketOpcode, _ payload: [UInt8], isFinal: Bool = true) throws {
        let key = WebSocketMaskingKey(using: &self.random)
        try self.http.send(
            WebSocketFrameEncoder.encodeFrame(opcode, payload: payload, isFinal: isFinal, maskingKey: key)
        )
    }

    func send(text: String) throws {
        try self.send(.text, Array(text.utf8))
    }

    /// Reads one unmasked server frame.
    func readFrame() throws -> ReceivedFrame {
        let head = try self.http.readExactly(2)
        guard head[1] & 0x80 == 0 else { throw TestClientError(description: "server frame was masked") }
        var length = Int(head[1] & 0x7F)
        if length >= 126 {
            length = 0
            for byte in try self.http.readExactly(head[1] & 0x7F == 126 ? 2 : 8) {
                length = length << 8 | Int(byte)
            }
        }
        let payload = try self.http.readExactly(length)
        return ReceivedFrame(
            opcode: WebSocketOpcode(rawValue: head[0] & 0x0F),
            isFinal: head[0] & 0x80 != 0,
            payload: payload
        )
    }
}
