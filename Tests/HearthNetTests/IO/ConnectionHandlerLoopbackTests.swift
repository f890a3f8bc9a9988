import HearthNet
import Testing

/// The seam between the reactor and a protocol, exercised with a raw recording handler.
@Suite struct ConnectionHandlerLoopbackTests {
    /// A handler that pauses reading gets nothing more, however much arrives, until a message from another thread
    /// resumes it; then everything that waited in the kernel is delivered in order.
    @Test(.timeLimit(.minutes(1))) func pausedReadingHoldsBytesUntilResumed() async throws {
        try await self.withPausedServer { loop, server, clientWriter, serverWriter in
            #expect(clientWriter.write(Array("-second".utf8)))
            #expect(!(await server.wait(seconds: 0.2) { $0.received.count > 5 }))
            loop.send(RecordingConnectionHandler.ResumeReading(), to: serverWriter.id)
            #expect(await server.wait { $0.received == Array("first-second".utf8) })
        }
    }

    /// Resuming a connection whose socket was read empty reads nothing then (no `recv` that could only say
    /// `EAGAIN`, as a keep-alive HTTP connection resumes after every answer), yet misses nothing: bytes sent after
    /// the resume raise their own edge, and bytes that came while it was paused are read when it resumes again.
    @Test(.timeLimit(.minutes(1))) func resumingAnEmptiedSocketMissesNoLaterBytes() async throws {
        try await self.withPausedServer { loop, server, clientWriter, serverWriter in
            // Resumed with nothing waiting: the next bytes still arrive (and pause it again).
            loop.send(RecordingConnectionHandler.ResumeReading(), to: serverWriter.id)
            try await Task.sleep(for: .milliseconds(50))
            #expect(clientWriter.write(Array("-second".utf8)))
            #expect(await server.wait { $0.received == Array("first-second".utf8) })
            // Bytes that come while paused wait for the resume, which reads them.
            #expect(clientWriter.write(Array("-third".utf8)))
            #expect(!(await server.wait(seconds: 0.2) { $0.received.count > 12 }))
            loop.send(RecordingConnectionHandler.ResumeReading(), to: serverWriter.id)
            #expect(await server.wait { $0.received == Array("first-second-third".utf8) })
        }
    }

    /// Runs `body` with a server whose handler paused reading after the client's greeting "first" arrived: the
    /// loop, the server's log, and the client's and the server's writers.
    private func withPausedServer(
        _ body: (EventLoop, ConnectionLog, ConnectionWriter, ConnectionWriter) async throws -> Void
    ) async throws {
        let server = ConnectionLog()
        let client = ConnectionLog()
        let listener = try recordingListener(server, .init(pausesAfterFirstRead: true))
        try await withEventLoop(listener: listener) { loop in
            loop.connect(
                to: try SocketAddress(host: "127.0.0.1", port: listener.port),
                timeout: .seconds(1),
                makeHandler: RecordingConnectionHandler.factory(client, .init(greeting: Array("first".utf8)))
            )
            #expect(await server.wait { $0.received == Array("first".utf8) })
            let clientWriter = try #require(client.snapshot.writers.first)
            let serverWriter = try #require(server.snapshot.writers.first)
            try await body(loop, server, clientWriter, serverWriter)
        }
    }

    /// A peer that never reads is cut off once its outbound queue passes the loop's limit, and the handler hears
    /// why.
    @Test(.timeLimit(.minutes(1))) func anOverflowingWriterClosesWithATypedError() async throws {
        let server = ConnectionLog()
        let client = ConnectionLog()
        let listener = try recordingListener(server)
        var configuration = EventLoop.Configuration()
        configuration.outboundBufferLimit = 1024
        let clientLoop = try EventLoop(configuration: configuration)
        try await withEventLoop(listener: listener) { _ in
            clientLoop.connect(
                to: try SocketAddress(host: "127.0.0.1", port: listener.port),
                timeout: .seconds(1),
                makeHandler: RecordingConnectionHandler.factory(client)
            )
            #expect(await client.wait { $0.opened == 1 })
            let writer = try #require(client.snapshot.writers.first)
            #expect(!writer.write([UInt8](repeating: 1, count: 2048)))
            #expect(await client.wait { !$0.closes.isEmpty })
            #expect(client.snapshot.closes.first??.code == .outboundOverflow)
        }
        try await clientLoop.shutdown()
    }

    /// A read that does not fill the buffer ends the turn's reading without a last `recv` (saving a system call per
    /// message), yet nothing is lost: bytes sent later raise a new edge, and bytes followed at once by the peer's FIN
    /// are read through to the end of the stream, which closes the connection.
    @Test(.timeLimit(.minutes(1))) func shortReadsMissNeitherLaterBytesNorAClosingPeer() async throws {
        let server = ConnectionLog()
        let client = ConnectionLog()
        let listener = try recordingListener(server)
        try await withEventLoop(listener: listener) { loop in
            loop.connect(
                to: try SocketAddress(host: "127.0.0.1", port: listener.port),
                timeout: .seconds(1),
                makeHandler: RecordingConnectionHandler.factory(client)
            )
            #expect(await client.wait { $0.opened == 1 })
            let writer = try #require(client.snapshot.writers.first)
            var expected: [UInt8] = []
            for message in ["one", "two", "three"] {
                expected += Array(message.utf8)
                #expect(writer.write(Array(message.utf8)))
                #expect(await server.wait { $0.received == expected })
            }
            expected += Array("last".utf8)
            #expect(writer.write(Array("last".utf8)))
            writer.close()
            #expect(await server.wait { $0.received == expected && $0.closes.count == 1 })
        }
    }
}
