import Foundation
import HearthNet
import HearthTestKit
import Synchronization
import Testing

/// Writes three SSE events at start, then closes the stream.
private struct ThreeEvents: HTTPStreamSession {
    let log: EventLog

    func start(_ writer: ConnectionWriter) {
        self.log.append("start")
        for index in 1...3 { writer.write(Array("event: put\ndata: \(index)\n\n".utf8)) }
        writer.close()
    }

    func connectionClosed() { self.log.append("closed") }
}

/// Writes 16 KiB blocks from its own thread until the writer refuses one.
private struct Flood: HTTPStreamSession {
    let log: EventLog

    func start(_ writer: ConnectionWriter) {
        let log = self.log
        Thread {
            let block = [UInt8](repeating: 0x78, count: 16 * 1024)
            var written = 0
            while writer.write(block) {
                written += 1
                if written % 64 == 0 { Thread.sleep(forTimeInterval: 0.001) }
            }
            log.append("refused after \(written)")
        }.start()
    }

    func connectionClosed() { self.log.append("closed") }
}

/// Echoes every byte back.
private final class Echo: UpgradedConnectionHandler {
    let writer = Mutex<ConnectionWriter?>(nil)
    let log: EventLog

    init(log: EventLog) { self.log = log }

    func start(_ writer: ConnectionWriter) { self.writer.withLock { $0 = writer } }
    func received(_ bytes: UnsafeRawBufferPointer) { _ = self.writer.withLock { $0?.write(Array(bytes)) } }
    func connectionClosed() { self.log.append("closed") }
}

@Suite(.serialized) struct HTTPServerStreamingLoopbackTests {
    @Test func streamsSessionWritesAsChunks() async throws {
        let log = EventLog()
        let handler = TestHandler { _ in
            var headers = HTTPHeaders()
            headers.add("Content-Type", "text/event-stream")
            return .stream(HTTPResponse(status: 200, headers: headers), ThreeEvents(log: log))
        }
        try await withServer(handler: handler) { _, port in
            let (head, chunks) = try await onDedicatedThread {
                let client = try HTTPTestClient(port: port)
                try client.send("GET /.json HTTP/1.1\r\nHost: h\r\nAccept: text/event-stream\r\n\r\n")
                let head = try client.readUntil("\r\n\r\n")
                return (String(decoding: head, as: UTF8.self), try client.readChunks())
            }
            #expect(head.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(head.contains("Transfer-Encoding: chunked\r\n"))
            #expect(chunks.map { String(decoding: $0, as: UTF8.self) } == (1...3).map { "event: put\ndata: \($0)\n\n" })
            #expect(await log.wait { $0 == ["start", "closed"] })
        }
    }

    @Test func upgradedConnectionEchoesBytesIncludingThoseBufferedBehindTheHead() async throws {
        let log = EventLog()
        let handler = TestHandler { _ in
            var headers = HTTPHeaders()
            headers.add("Upgrade", "echo")
            headers.add("Connection", "Upgrade")
            return .upgrade(HTTPResponse(status: 101, headers: headers), Echo(log: log))
        }
        try await withServer(handler: handler) { _, port in
            let (status, early, later) = try await onDedicatedThread {
                let client = try HTTPTestClient(port: port)
                try client.send("GET /echo HTTP/1.1\r\nHost: h\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\nearly")
                let head = String(decoding: try client.readUntil("\r\n\r\n"), as: UTF8.self)
                let early = try client.readExactly(5)
                try client.send("GET / HTTP/1.1\r\n\r\n")
                let later = try client.readExactly(18)
                return (head, early, later)
            }
            #expect(status.hasPrefix("HTTP/1.1 101 Switching Protocols\r\n"))
            #expect(early == Array("early".utf8))
            #expect(later == Array("GET / HTTP/1.1\r\n\r\n".utf8))
        }
        #expect(log.all == ["closed"])
    }

    @Test func closesAStreamWhoseClientNeverReads() async throws {
        let log = EventLog()
        var configuration = HTTPServerConfiguration.loopback()
        configuration.outboundBufferLimit = 256 * 1024
        let handler = TestHandler { _ in .stream(HTTPResponse(status: 200), Flood(log: log)) }
        try await withServer(configuration, handler: handler) { server, port in
            let client = try await onDedicatedThread {
                let client = try HTTPTestClient(port: port)
                try client.send("GET /flood HTTP/1.1\r\nHost: h\r\n\r\n")
                return UncheckedBox(client)
            }
            #expect(await log.wait(seconds: 10) { $0.contains("closed") && $0.contains { $0.hasPrefix("refused") } })
            #expect(server.statistics.openConnections == 0)
            _ = client
        }
    }

    @Test func gracefulShutdownFinishesAnInFlightRequest() async throws {
        let log = EventLog()
        let handler = TestHandler { _ in
            log.append("started")
            await uncancellableSleep(seconds: 0.3)
            return .response(HTTPResponse(status: 200, body: Array("finished".utf8)))
        }
        let server = HTTPServer(configuration: .loopback(), handler: handler)
        let response = try await responseAcrossGracefulShutdown(
            server, request: "GET /slow HTTP/1.1\r\nHost: h\r\n\r\n", started: { await log.wait { $0 == ["started"] } })
        #expect(response?.status == 200)
        #expect(response?.text == "finished")
        #expect(response?.header("Connection") == "close")
        #expect(server.statistics.openConnections == 0)
    }
}
