import HearthCore
import HearthNet
import HearthTestKit
import Testing

@Suite struct WebSocketClientHandshakeTests {
    private static let key = "dGhlIHNhbXBsZSBub25jZQ=="

    private static func head(_ lines: [String]) -> [UInt8] {
        Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    private static let goodLines = [
        "HTTP/1.1 101 Switching Protocols", "Upgrade: websocket", "Connection: Upgrade",
        "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=",
    ]

    private func failure(_ lines: [String]) -> WebSocketClientHandshakeError? {
        do {
            try WebSocketClientHandshake.check(head: Self.head(lines), key: Self.key)
            return nil
        } catch {
            return error
        }
    }

    /// The request is an RFC 6455 upgrade that the server's own check accepts.
    @Test func requestIsAValidUpgrade() throws {
        var random = SeededRandom(seed: 1)
        let key = WebSocketClientHandshake.makeKey(using: &random)
        #expect(Base64.decode(key)?.count == 16)
        let bytes = WebSocketClientHandshake.request(target: "/.ws?v=5&ns=demo", host: "127.0.0.1:9000", key: key)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasSuffix("\r\n\r\n"))
        let lines = text.split(separator: "\r\n").map(String.init)
        #expect(lines.first == "GET /.ws?v=5&ns=demo HTTP/1.1")
        var headers = HTTPHeaders()
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingPrefix(" ") }
            headers.add(String(parts[0]), String(parts[1]))
        }
        #expect(headers["Host"] == "127.0.0.1:9000")
        let request = HTTPRequest(
            method: "GET", target: "/.ws?v=5&ns=demo", path: "/.ws", version: "HTTP/1.1", headers: headers)
        let response = try WebSocketHandshake.acceptResponse(for: request)
        #expect(response.status == 101)
        #expect(response.headers["Sec-WebSocket-Accept"] == WebSocketHandshake.acceptValue(forKey: key))
    }

    /// RFC 6455 §1.3's example answer passes.
    @Test func acceptsTheRFCExample() {
        #expect(self.failure(Self.goodLines) == nil)
    }

    /// An accept key that does not match ours is refused, saying what was expected.
    @Test func refusesABadAcceptKey() throws {
        var lines = Self.goodLines
        lines[3] = "Sec-WebSocket-Accept: AAAAAAAAAAAAAAAAAAAAAAAAAAA="
        let error = try #require(self.failure(lines))
        #expect(error.code == .invalidAccept)
        #expect(error.message.contains("s3pPLMBiTxaQ9kYGzzhZRbK+xOo="))
        #expect(error.message.contains("AAAAAAAAAAAAAAAAAAAAAAAAAAA="))
        #expect(self.failure(Array(Self.goodLines.prefix(3)))?.code == .invalidAccept)
    }

    /// Anything but a 101 with the upgrade headers is refused; so is an extension nobody asked for.
    @Test func refusesOtherAnswers() {
        #expect(self.failure(["HTTP/1.1 400 Bad Request", "Content-Length: 0"])?.code == .upgradeRefused)
        #expect(self.failure([Self.goodLines[0], Self.goodLines[2], Self.goodLines[3]])?.code == .upgradeRefused)
        #expect(
            self.failure(Self.goodLines + ["Sec-WebSocket-Extensions: permessage-deflate"])?.code
                == .unexpectedNegotiation)
        #expect(self.failure(["SSH-2.0-OpenSSH"])?.code == .malformedResponse)
    }

    /// The head ends at the blank line; what follows is already frames.
    @Test func findsTheEndOfTheHead() {
        let head = Self.head(Self.goodLines)
        #expect(WebSocketClientHandshake.headLength(in: Array(head.dropLast())) == nil)
        #expect(WebSocketClientHandshake.headLength(in: head + [0x81, 0x00]) == head.count)
    }

    /// A client frame is masked with its key (the bytes on the wire differ from the text) and the server's parser,
    /// which insists on masking, reads the text back.
    @Test func clientFramesAreMasked() throws {
        let text = "{\"t\":\"c\",\"d\":{\"t\":\"p\",\"d\":{}}}"
        let frame = WebSocketFrameEncoder.encodeFrame(
            .text, payload: text.utf8, maskingKey: WebSocketMaskingKey(0x1234_5678))
        #expect(frame[1] & 0x80 != 0)
        #expect(Array(frame.suffix(text.utf8.count)) != Array(text.utf8))
        var server = WebSocketFrameParser(expectsMaskedFrames: true)
        server.append(frame)
        #expect(try server.nextEvent() == .text(text))
        var client = WebSocketFrameParser(expectsMaskedFrames: false)
        client.append(frame)
        #expect(throws: WebSocketProtocolError.self) { try client.nextEvent() }
    }
}
