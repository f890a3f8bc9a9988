import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A blocking raw-frame WebSocket client for tests: performs the RFC 6455 upgrade, sends masked frames exactly as
/// given, and reads frames one at a time, so tests control the wire byte for byte (split messages, bad frames,
/// abrupt closes). Use it only from a dedicated thread (`onDedicatedThread`).
public final class WebSocketTestClient {
    /// One frame as received.
    public struct Frame: Sendable, Equatable {
        public var opcode: UInt8
        public var isFinal: Bool
        public var payload: [UInt8]
        public var text: String { String(decoding: self.payload, as: UTF8.self) }
    }

    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// The 101 response's headers.
    public private(set) var responseHeaders: [(String, String)] = []

    /// Connects to `127.0.0.1:port` and upgrades at `target` (e.g. `/.ws?v=5&ns=demo`).
    /// - Throws: `HTTPTestClient.ClientError` when the connection or the upgrade fails.
    public init(
        port: Int, target: String = "/.ws?v=5", host: String = "127.0.0.1", timeoutSeconds: Int = 30,
        receiveBufferBytes: Int? = nil
    ) throws {
        let fd = try LoopbackSocket.connect(
            port: port, timeoutSeconds: timeoutSeconds, receiveBufferBytes: receiveBufferBytes)
        self.descriptor = fd
        let request =
            "GET \(target) HTTP/1.1\r\nHost: \(host)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        try self.send(Array(request.utf8))
        let end = try self.readUntil(Array("\r\n\r\n".utf8))
        let head = String(decoding: self.buffer[..<end], as: UTF8.self)
        self.buffer.removeFirst(end + 4)
        guard head.hasPrefix("HTTP/1.1 101") else {
            throw HTTPTestClient.ClientError(description: "upgrade refused: \(head)")
        }
        for line in head.components(separatedBy: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            self.responseHeaders.append(
                (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
    }

    deinit { close(self.descriptor) }

    /// Drops the TCP connection without a close frame (an abrupt disconnect).
    public func abort() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(self.descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        shutdown(self.descriptor, Int32(SHUT_RDWR))
    }

    /// Sends raw bytes.
    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(self.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { throw HTTPTestClient.ClientError(description: "send failed: errno \(errno)") }
            offset += written
        }
    }

    /// Sends one masked text frame.
    public func sendText(_ text: String) throws {
        try self.send(Self.frame(opcode: 0x1, payload: Array(text.utf8)))
    }

    /// Sends a masked close frame with `code`.
    public func sendClose(code: UInt16 = 1000) throws {
        try self.send(Self.frame(opcode: 0x8, payload: [UInt8(code >> 8), UInt8(code & 0xFF)]))
    }

    /// A client frame: FIN set, masked with a fixed key (the server must unmask any key).
    public static func frame(opcode: UInt8, payload: [UInt8], isFinal: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = [(isFinal ? 0x80 : 0) | opcode]
        if payload.count < 126 {
            bytes.append(0x80 | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            bytes += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            bytes.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((payload.count >> shift) & 0xFF)) }
        }
        let mask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
        bytes += mask
        for (index, byte) in payload.enumerated() { bytes.append(byte ^ mask[index % 4]) }
        return bytes
    }

    /// Reads the next frame (any opcode).
    public func readFrame() throws -> Frame {
        try self.fill(atLeast: 2)
        let first = self.buffer[0]
        let second = self.buffer[1]
        var length = Int(second & 0x7F)
        var offset = 2
        if length == 126 {
            try self.fill(atLeast: 4)
            length = Int(self.buffer[2]) << 8 | Int(self.buffer[3])
            offset = 4
        } else if length == 127 {
            try self.fill(atLeast: 10)
            length = self.buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
            offset = 10
        }
        try self.fill(atLeast: offset + length)
        let frame = Frame(
            opcode: first & 0x0F, isFinal: first & 0x80 != 0, payload: Array(self.buffer[offset..<(offset + length)]))
        self.buffer.removeFirst(offset + length)
        return frame
    }

    /// Reads the next text frame, skipping pings and pongs.
    public func readText() throws -> String {
        while true {
            let frame = try self.readFrame()
            switch frame.opcode {
            case 0x1: return frame.text
            case 0x9, 0xA: continue
            case 0x8: throw HTTPTestClient.ClientError(description: "closed by server: \(Self.closeDescription(frame))")
            default: throw HTTPTestClient.ClientError(description: "unexpected opcode \(frame.opcode)")
            }
        }
    }

    /// Reads frames until a close frame arrives (or the socket ends) and returns `(code, reason)`.
    public func readClose() throws -> (code: UInt16?, reason: String) {
        while true {
            let frame = try self.readFrame()
            guard frame.opcode == 0x8 else { continue }
            guard frame.payload.count >= 2 else { return (nil, "") }
            let code = UInt16(frame.payload[0]) << 8 | UInt16(frame.payload[1])
            return (code, String(decoding: frame.payload[2...], as: UTF8.self))
        }
    }

    /// True when nothing arrives within `seconds`.
    public func isSilent(forSeconds seconds: Double) -> Bool {
        var poller = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
        return self.buffer.isEmpty && poll(&poller, 1, Int32(seconds * 1000)) == 0
    }

    private static func closeDescription(_ frame: Frame) -> String {
        guard frame.payload.count >= 2 else { return "no code" }
        let code = UInt16(frame.payload[0]) << 8 | UInt16(frame.payload[1])
        return "\(code) \(String(decoding: frame.payload[2...], as: UTF8.self))"
    }

    private func readUntil(_ marker: [UInt8]) throws -> Int {
        while true {
            if self.buffer.count >= marker.count {
                for index in 0...(self.buffer.count - marker.count)
                where self.buffer[index..<(index + marker.count)].elementsEqual(marker) {
                    return index
                }
            }
            try self.fill(atLeast: self.buffer.count + 1)
        }
    }

    private func fill(atLeast count: Int) throws {
        try LoopbackSocket.receive(self.descriptor, into: &self.buffer, atLeast: count)
    }
}
