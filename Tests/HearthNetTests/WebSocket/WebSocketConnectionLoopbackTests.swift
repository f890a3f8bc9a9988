import Glibc
import HearthNet
import HearthTestKit
import Synchronization
import Testing

/// Real sockets on 127.0.0.1: the HTTP server upgrades to a `WebSocketConnection` and a blocking test client talks
/// RFC 6455 to it.
@Suite(.serialized) struct WebSocketConnectionLoopbackTests {
    /// A handler that upgrades every request, with a short close timeout so timeout tests stay fast.
    private func upgrading(_ messageHandler: RecordingMessageHandler) -> TestHandler {
        TestHandler { request in
            WebSocketConnection.upgradeReply(
                for: request,
                handler: messageHandler,
                maximumMessageBytes: 1 << 20,
                closeTimeout: .milliseconds(300)
            )
        }
    }

    @Test func echoesMaskedTextAnswersPingsAndClosesCleanly() async throws {
        let messages = RecordingMessageHandler(isEcho: true)
        try await withServer(handler: self.upgrading(messages)) { _, port in
            let frames = try await onDedicatedThread {
                let client = try WebSocketTestClient(port: port)
                var frames: [WebSocketTestClient.Frame] = []
                try client.sendText("hello")
                frames.append(try client.readFrame())
                try client.send(.text, Array("frag".utf8), isFinal: false)
                try client.send(.ping, Array("p1".utf8))
                try client.send(.continuation, Array("mented €".utf8))
                frames.append(try client.readFrame())
                frames.append(try client.readFrame())
                try client.send(.binary, [UInt8](repeating: 0xAB, count: 70_000))
                frames.append(try client.readFrame())
                try client.send(.close, [0x03, 0xE8] + Array("bye".utf8))
                frames.append(try client.readFrame())
                #expect(client.isClosedByServer())
                return frames
            }
            #expect(frames[0] == WebSocketTestClient.Frame(opcode: .text, isFinal: true, payload: Array("hello".utf8)))
            #expect(frames[1] == WebSocketTestClient.Frame(opcode: .pong, isFinal: true, payload: Array("p1".utf8)))
            #expect(
                frames[2]
                    == WebSocketTestClient.Frame(opcode: .text, isFinal: true, payload: Array("fragmented €".utf8)))
            #expect(
                frames[3]
                    == WebSocketTestClient.Frame(
                        opcode: .binary, isFinal: true, payload: [UInt8](repeating: 0xAB, count: 70_000))
            )
            #expect(frames[4].opcode == .close)
            #expect(frames[4].closeCode == 1000)
            #expect(await messages.log.wait { $0.last == "closed:1000:bye" })
            #expect(
                messages.log.all == ["opened", "text:hello", "text:fragmented €", "binary:70000", "closed:1000:bye"]
            )
        }
    }

    /// A frame that trickles in below the minimum data rate closes the WebSocket with 1008; whole messages at any
    /// pace between them are fine.
    @Test func closesAFrameThatTricklesWith1008() async throws {
        let messages = RecordingMessageHandler(isEcho: true)
        var configuration = HTTPServerConfiguration.loopback()
        configuration.minimumDataRate = MinimumDataRate(bytesPerSecond: 1_000, graceSeconds: 0.2)
        try await withServer(configuration, handler: self.upgrading(messages)) { _, port in
            let (echo, close) = try await onDedicatedThread {
                let client = try WebSocketTestClient(port: port)
                usleep(300_000)
                try client.sendText("whole")
                let echo = try client.readFrame()
                let frame = clientText(String(repeating: "t", count: 1_000))
                for byte in frame.prefix(8) {
                    try client.send([byte])
                    usleep(50_000)
                }
                return (echo, try client.readFrame())
            }
            #expect(echo.text == "whole")
            #expect(close.opcode == .close)
            #expect(close.closeCode == WebSocketCloseCode.policyViolation)
        }
    }

    /// While a megabyte of answers waits for a client that does not read, its further messages are not read
    /// either (each one here, 32 KB so that few arrive in one read, asks for 256 KB); once it reads, the rest are
    /// handled, in order.
    @Test func stopsReadingMessagesWhileAnswersPileUp() async throws {
        let amplifier = Amplifier()
        try await withServer(handler: TestHandler { WebSocketConnection.upgradeReply(for: $0, handler: amplifier) }) {
            _, port in
            let (whileUnread, answered) = try await onDedicatedThread {
                let client = try WebSocketTestClient(port: port)
                for index in 0..<100 { try client.sendText("\(index)" + String(repeating: " ", count: 32 * 1024)) }
                usleep(500_000)
                let whileUnread = amplifier.handled.load(ordering: .relaxed)
                var answered = 0
                for _ in 0..<100 where try client.readFrame().payload.count == Amplifier.answerBytes { answered += 1 }
                return (whileUnread, answered)
            }
            #expect(whileUnread < 80, "\(whileUnread) of 100 messages handled while the client read nothing")
            #expect(answered == 100)
        }
    }

    @Test func serverPingsAndTheClientsPongIsAbsorbed() async throws {
        let messages = RecordingMessageHandler(isEcho: true, pingsOnOpen: true)
        try await withServer(handler: self.upgrading(messages)) { _, port in
            let (ping, echo) = try await onDedicatedThread {
                let client = try WebSocketTestClient(port: port)
                let ping = try client.readFrame()
                try client.send(.pong, ping.payload)
                try client.sendText("after pong")
                return (ping, try client.readFrame())
            }
            #expect(ping == WebSocketTestClient.Frame(opcode: .ping, isFinal: true, payload: Array("server".utf8)))
            #expect(echo.text == "after pong")
        }
    }

    @Test func serverInitiatedCloseCompletesWhenTheClientAnswers() async throws {
        let messages = RecordingMessageHandler(isEcho: true)
        try await withServer(handler: self.upgrading(messages)) { _, port in
            let close = try await onDedicatedThread {
                let client = try WebSocketTestClient(port: port)
                try client.sendText("close:asked")
                let close = try client.readFrame()
                try client.send(.close, close.payload)
                #expect(client.isClosedByServer())
                return close
            }
            #expect(close.opcode == .close)
            #expect(close.closeCode == 4000)
            #expect(String(decoding: close.payload.dropFirst(2), as: UTF8.self) == "asked")
            #expect(await messages.log.wait { $0.last == "closed:4000:asked" })
            #expect(messages.log.all == ["opened", "text:close:asked", "sendAfterClose:false", "closed:4000:asked"])
        }
    }

    @Test func serverInitiatedCloseDropsAClientThatNeverAnswers() async throws {
        let messages = RecordingMessageHandler(isEcho: true)
        try await withServer(handler: self.upgrading(messages)) { _, port in
            let (close, isClosed) = try await onDedicatedThread {
                let client = try WebSocketTestClient(port: port)
                try client.sendText("close:silent")
                let close = try client.readFrame()
                try client.sendText("ignored after close")
                return (close, client.isClosedByServer())
            }
            #expect(close.closeCode == 4000)
            #expect(isClosed)
            #expect(await messages.log.wait { $0.last == "closed:1006:" })
            #expect(!messages.log.all.contains("text:ignored after close"))
        }
    }

    @Test func unmaskedClientFramesFailTheConnectionWith1002() async throws {
        let messages = RecordingMessageHandler()
        try await withServer(handler: self.upgrading(messages)) { _, port in
            let close = try await onDedicatedThread {
                let client = try WebSocketTestClient(port: port)
                try client.send(WebSocketFrameEncoder.encodeText("unmasked"))
                let close = try client.readFrame()
                #expect(client.isClosedByServer())
                return close
            }
            #expect(close.opcode == .close)
            #expect(close.closeCode == 1002)
            #expect(await messages.log.wait { $0.last?.hasPrefix("closed:1002:") == true })
        }
    }

    @Test func aBadHandshakeGetsA400WithAJSONError() async throws {
        let handler = TestHandler { request in
            WebSocketConnection.upgradeReply(
                for: request,
                handler: RecordingMessageHandler(),
                maximumMessageBytes: 1024
            )
        }
        try await withServer(handler: handler) { _, port in
            let response = try await onDedicatedThread {
                let client = try HTTPTestClient(port: port)
                try client.send("GET /.ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n")
                return try client.readResponse()
            }
            #expect(response.status == 400)
            #expect(response.text.hasPrefix("{\"error\":"))
        }
    }
}

/// Answers every text message with 256 KB, counting the messages it handled.
private final class Amplifier: WebSocketMessageHandler {
    static let answerBytes = 256 * 1024
    let handled = Atomic<Int>(0)
    private let socket = Mutex<WebSocketConnection?>(nil)

    func opened(_ socket: WebSocketConnection) {
        self.socket.withLock { $0 = socket }
    }

    func received(text: String) {
        self.handled.add(1, ordering: .relaxed)
        self.socket.withLock { $0 }?.send(binary: [UInt8](repeating: 0x5A, count: Self.answerBytes))
    }

    func received(binary: [UInt8]) {}

    func closed(code: UInt16?, reason: String) {
        self.socket.withLock { $0 = nil }
    }
}
