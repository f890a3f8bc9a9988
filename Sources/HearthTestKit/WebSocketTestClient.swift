import Foundation
import HearthCore

/// A blocking raw-frame WebSocket client for tests: performs the RFC 6455 upgrade (checking the server's accept
/// key), sends masked frames exactly as given, and reads frames one at a time, so tests control the wire byte for
/// byte (split messages, bad frames, abrupt closes). Its framing is written here, independently of the server's
/// codec, so a bug shared by both sides cannot hide. Use it only from a dedicated thread (`onDedicatedThread`).
public final class WebSocketTestClient: LoopbackConnection {
    /// The 101 response's headers.
    public private(set) var responseHeaders: [(String, String)] = []
    /// Draws a fresh masking key for every frame `send(_:_:isFinal:)` builds, repeatably.
    private var random = SeededRandom(seed: 6455)

    /// Connects to `127.0.0.1:port` and upgrades at `target` (e.g. `/.ws?v=5&ns=demo`).
    /// - Throws: `TestClientError` when the connection fails, or the server refuses the upgrade or answers it with
    ///   the wrong `Sec-WebSocket-Accept`.
    public init(
        port: Int, target: String = "/.ws?v=5", host: String = "127.0.0.1", timeoutSeconds: Int = 60,
        receiveBufferBytes: Int? = nil, key: String = "dGhlIHNhbXBsZSBub25jZQ=="
    ) throws {
        try super.init(port: port, timeoutSeconds: timeoutSeconds, receiveBufferBytes: receiveBufferBytes)
        try self.send(
            "GET \(target) HTTP/1.1\r\nHost: \(host)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\r\n")
        let head = String(decoding: try self.readUntil("\r\n\r\n").dropLast(4), as: UTF8.self)
        guard head.hasPrefix("HTTP/1.1 101") else {
            throw TestClientError(description: "upgrade refused: \(head)")
        }
        for line in head.components(separatedBy: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            self.responseHeaders.append(
                (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        let expected = Base64.encode(SHA1.hash(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8)))
        let accept = self.responseHeaders.first { $0.0.lowercased() == "sec-websocket-accept" }?.1
        guard accept == expected else {
            throw TestClientError(description: "wrong Sec-WebSocket-Accept \(accept ?? "(none)"), expected \(expected)")
        }
    }

    /// Sends one frame masked with a fresh key.
    public func send(_ opcode: Opcode, _ payload: [UInt8], isFinal: Bool = true) throws {
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255, using: &self.random) }
        try self.send(Self.frame(opcode: opcode, payload: payload, isFinal: isFinal, mask: mask))
    }

    /// Sends one masked text frame.
    public func sendText(_ text: String) throws {
        try self.send(.text, Array(text.utf8))
    }

    /// Sends a masked close frame with `code`.
    public func sendClose(code: UInt16 = 1000) throws {
        try self.send(.close, [UInt8(code >> 8), UInt8(code & 0xFF)])
    }

    /// A client frame masked with `mask` (the server must unmask any key).
    public static func frame(
        opcode: Opcode, payload: [UInt8], isFinal: Bool = true, mask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
    ) -> [UInt8] {
        var bytes: [UInt8] = [(isFinal ? 0x80 : 0) | opcode.rawValue]
        if payload.count < 126 {
            bytes.append(0x80 | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            bytes += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            bytes.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((payload.count >> shift) & 0xFF)) }
        }
        bytes += mask
        for (index, byte) in payload.enumerated() { bytes.append(byte ^ mask[index % 4]) }
        return bytes
    }

    /// Reads the next frame (any opcode).
    /// - Throws: `TestClientError` when the server masked it (servers must not) or the connection ends.
    public func readFrame() throws -> Frame {
        let head = try self.readExactly(2)
        guard head[1] & 0x80 == 0 else { throw TestClientError(description: "the server masked a frame") }
        var length = Int(head[1] & 0x7F)
        if length >= 126 {
            length = try self.readExactly(length == 126 ? 2 : 8).reduce(0) { $0 << 8 | Int($1) }
        }
        return Frame(
            opcode: Opcode(rawValue: head[0] & 0x0F), isFinal: head[0] & 0x80 != 0,
            payload: try self.readExactly(length))
    }

    /// Reads the next text frame, skipping pings and pongs.
    public func readText() throws -> String {
        while true {
            let frame = try self.readFrame()
            switch frame.opcode {
            case .text: return frame.text
            case .ping, .pong: continue
            case .close:
                let reason = frame.closeCode.map { "\($0) \(frame.closeReason)" } ?? "no code"
                throw TestClientError(description: "closed by server: \(reason)")
            default: throw TestClientError(description: "unexpected opcode \(frame.opcode)")
            }
        }
    }

    /// Reads frames until a close frame arrives and returns its `(code, reason)`.
    public func readClose() throws -> (code: UInt16?, reason: String) {
        while true {
            let frame = try self.readFrame()
            guard frame.opcode == .close else { continue }
            return (frame.closeCode, frame.closeReason)
        }
    }
}
