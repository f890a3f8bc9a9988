import Foundation
import HearthNet
import HearthTestKit
import Synchronization
import Testing

/// Streams 16 KiB blocks, one every millisecond, until the writer refuses one; says "bye" when evicted.
private final class Firehose: HTTPStreamSession {
    let log: EventLog
    private let writer = Mutex<ConnectionWriter?>(nil)

    init(log: EventLog) { self.log = log }

    func start(_ writer: ConnectionWriter) {
        self.writer.withLock { $0 = writer }
        let log = self.log
        Thread {
            let block = [UInt8](repeating: 0x78, count: 16 * 1024)
            while writer.write(block) { usleep(1_000) }
            log.append("refused")
        }.start()
    }

    func evicted(reason: ConnectionEviction) {
        self.log.append("evicted:\(reason == .clientMemoryBudget ? "budget" : "softLimit")")
        self.writer.withLock { $0 }?.writeFarewell(Array("bye".utf8))
    }

    func connectionClosed() { self.log.append("closed") }
}

/// Sends 16 KiB text messages, one every millisecond, from the moment the WebSocket opens until it refuses one.
private final class MessageFirehose: WebSocketMessageHandler {
    let log = EventLog()

    func opened(_ socket: WebSocketConnection) {
        let log = self.log
        Thread {
            let message = String(repeating: "m", count: 16 * 1024)
            while socket.send(text: message) { usleep(1_000) }
            log.append("refused")
        }.start()
    }

    func received(text: String) {}
    func received(binary: [UInt8]) {}
    func closed(code: UInt16?, reason: String) { self.log.append("closed") }
}

/// Real sockets: clients that stop reading are evicted with their protocol's goodbye, after the message in
/// progress, while clients that read carry on.
@Suite(.serialized) struct ClientEvictionLoopbackTests {
    /// Polls `condition` on the calling (dedicated) thread for up to 30 s.
    private static func waitBlocking(_ condition: () -> Bool) throws {
        for _ in 0..<30_000 where !condition() { usleep(1_000) }
        guard condition() else { throw TestClientError(description: "the eviction did not happen within 30 s") }
    }

    private func firehose(_ log: EventLog) -> TestHandler {
        TestHandler { _ in .stream(HTTPResponse(status: 200), Firehose(log: log)) }
    }

    /// Above its soft limit for longer than the grace period (none here), a client that does not read is evicted;
    /// when it reads at last it gets whole chunks, then the goodbye, then the end of the body.
    @Test func aClientAboveItsSoftLimitTooLongIsEvictedWithAGoodbye() async throws {
        let log = EventLog()
        var configuration = HTTPServerConfiguration.loopback()
        configuration.outputSoftLimitBytes = 64 * 1024
        configuration.outputSoftLimitSeconds = 0
        configuration.maximumClientMemory = nil
        try await withServer(configuration, handler: self.firehose(log)) { server, port in
            let chunks = try await onDedicatedThread {
                let client = try HTTPTestClient(port: port, receiveBufferBytes: 4096)
                try client.send("GET /stream HTTP/1.1\r\nHost: h\r\n\r\n")
                // An evicted client has the reactor's close timeout (2 s) to read the rest: read as soon as it goes.
                try Self.waitBlocking { log.all.contains("evicted:softLimit") }
                _ = try client.readUntil("\r\n\r\n")
                return try client.readChunks()
            }
            #expect(chunks.last == Array("bye".utf8))
            #expect(chunks.dropLast().allSatisfy { $0.count == 16 * 1024 })
            #expect(await log.wait { $0.contains("closed") && $0.contains("refused") })
            #expect(server.statistics.evictedForSoftLimit == 1)
            #expect(server.statistics.evictedForMemoryBudget == 0)
        }
    }

    /// When clients together hold more than the budget, the one holding the most goes; one that reads keeps
    /// receiving.
    @Test func theBiggestHolderIsEvictedWhenClientsPassTheBudget() async throws {
        let log = EventLog()
        var configuration = HTTPServerConfiguration.loopback()
        configuration.maximumClientMemory = 2 * 1024 * 1024
        try await withServer(configuration, handler: self.firehose(log)) { server, port in
            let stalled = try await onDedicatedThread {
                let client = try HTTPTestClient(port: port, receiveBufferBytes: 4096)
                try client.send("GET /stalled HTTP/1.1\r\nHost: h\r\n\r\n")
                return UncheckedBox(client)
            }
            let reader = Task {
                try await onDedicatedThread {
                    let client = try HTTPTestClient(port: port)
                    try client.send("GET /reader HTTP/1.1\r\nHost: h\r\n\r\n")
                    _ = try client.readUntil("\r\n\r\n")
                    while !log.all.contains("evicted:budget") { _ = try client.readChunks(limit: 1) }
                    return try client.readChunks(limit: 200).count
                }
            }
            #expect(await log.wait(seconds: 30) { $0.contains("evicted:budget") })
            #expect(try await reader.value == 200)
            #expect(server.statistics.evictedForMemoryBudget == 1)
            #expect(server.statistics.clientMemoryBytes < 2 * 1024 * 1024)
            _ = stalled
        }
    }

    /// An evicted WebSocket gets whole messages, then a close frame with 1008 and a reason a user can act on.
    @Test func anEvictedWebSocketClosesWith1008AndTheReason() async throws {
        let messages = MessageFirehose()
        var configuration = HTTPServerConfiguration.loopback()
        configuration.outputSoftLimitBytes = 64 * 1024
        configuration.outputSoftLimitSeconds = 0
        let handler = TestHandler { WebSocketConnection.upgradeReply(for: $0, handler: messages) }
        try await withServer(configuration, handler: handler) { server, port in
            let (texts, close) = try await onDedicatedThread {
                let socket = try WebSocketTestClient(port: port, receiveBufferBytes: 4096)
                try Self.waitBlocking { server.statistics.evictedForSoftLimit == 1 }
                var texts = 0
                while true {
                    let frame = try socket.readFrame()
                    guard frame.opcode == .text else { return (texts, frame) }
                    #expect(frame.payload.count == 16 * 1024)
                    texts += 1
                }
            }
            #expect(texts > 0)
            #expect(close.opcode == .close)
            #expect(close.closeCode == WebSocketCloseCode.policyViolation)
            #expect(close.closeReason == ConnectionEviction.outputSoftLimit.description)
            #expect(await messages.log.wait { $0.contains("refused") && $0.contains("closed") })
        }
    }
}
