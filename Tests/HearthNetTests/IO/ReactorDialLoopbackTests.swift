import HearthNet
import Testing

@Suite struct ReactorDialLoopbackTests {
    /// A dialed connection and the accepted one at the other end are both driven by reactors: bytes queued when
    /// the dial connects, bytes written from a test task, and the echo coming back all arrive in order.
    @Test(.timeLimit(.minutes(1)), arguments: ["127.0.0.1", "::1"])
    func exchangesBytesBothWaysWithAListener(host: String) async throws {
        guard host == "127.0.0.1" || LoopbackPeers.supportsIPv6 else { return }
        let server = ConnectionLog()
        let client = ConnectionLog()
        let listener = try recordingListener(server, host: host, .init(isEcho: true))
        try await withEventLoop(listener: listener) { loop in
            let address = try SocketAddress(host: host, port: listener.port)
            loop.connect(
                to: address,
                timeout: .seconds(1),
                makeHandler: RecordingConnectionHandler.factory(client, .init(greeting: Array("hello ".utf8)))
            )
            #expect(await client.wait { $0.received.count == 6 })
            let writer = try #require(client.snapshot.writers.first)
            #expect(writer.write(Array("world".utf8)))
            #expect(await client.wait { $0.received.count == 11 })
            #expect(client.receivedText == "hello world")
            #expect(server.receivedText == "hello world")
            #expect(loop.statistics.acceptedConnections == 1)
            #expect(loop.statistics.openConnections == 2)
        }
    }

    /// A closed loopback port answers with a reset: the handler hears `connectFailed` with `connectionRefused`,
    /// a message naming the address, and a retryable error.
    @Test(.timeLimit(.minutes(1))) func reportsARefusedDial() async throws {
        let closed = try ReservedPort()
        let client = ConnectionLog()
        try await withEventLoop { loop in
            loop.connect(
                to: try closed.address, timeout: .seconds(1), makeHandler: RecordingConnectionHandler.factory(client))
            #expect(await client.wait { !$0.failures.isEmpty })
        }
        let failure = try #require(client.snapshot.failures.first)
        #expect(failure.code == .connectionRefused)
        #expect(failure.message.contains("127.0.0.1:\(closed.port)"))
        #expect(failure.isRetryable)
        #expect(client.snapshot.opened == 0)
        #expect(client.snapshot.closes.isEmpty)
    }

    /// A peer whose SYNs are dropped (a full accept queue) never answers; the connect timeout ends the dial with
    /// `timedOut` after the timeout, not after the kernel's minutes of SYN retries.
    @Test(.timeLimit(.minutes(1))) func timesOutADialThatNeverCompletes() async throws {
        let silent = try UnacceptingListener()
        let client = ConnectionLog()
        let clock = ContinuousClock()
        let start = clock.now
        try await withEventLoop { loop in
            loop.connect(
                to: try silent.address,
                timeout: .milliseconds(200),
                makeHandler: RecordingConnectionHandler.factory(client)
            )
            #expect(await client.wait { !$0.failures.isEmpty })
        }
        let elapsed = clock.now - start
        let failure = try #require(client.snapshot.failures.first)
        #expect(failure.code == .timedOut)
        #expect(failure.message.contains("within 0.2 s"))
        // Linux itself gives up on an unanswered SYN only after about two minutes; a loaded machine may add seconds.
        #expect(elapsed >= .milliseconds(200) && elapsed < .seconds(10))
    }

    /// Shutting down the dialing loop closes its connection in order (flush, FIN): the peer sees a clean close.
    @Test(.timeLimit(.minutes(1))) func stoppingTheLoopClosesDialedConnections() async throws {
        let server = ConnectionLog()
        let client = ConnectionLog()
        let listener = try recordingListener(server)
        try await withEventLoop(listener: listener) { serverLoop in
            let clientLoop = try EventLoop()
            clientLoop.connect(
                to: try SocketAddress(host: "127.0.0.1", port: listener.port),
                timeout: .seconds(1),
                makeHandler: RecordingConnectionHandler.factory(client, .init(greeting: Array("bye".utf8)))
            )
            #expect(await server.wait { $0.received.count == 3 })
            try await clientLoop.shutdown(gracePeriod: .seconds(1))
            #expect(client.snapshot.closes.count == 1)
            #expect(await server.wait { $0.closes.count == 1 })
            #expect(server.snapshot.closes == [nil])
            #expect(serverLoop.statistics.openConnections == 0)
        }
    }

    /// A dial started on a loop that has already stopped is reported as cancelled, not lost.
    @Test func dialingAStoppedLoopIsCancelled() async throws {
        let loop = try EventLoop()
        try await loop.shutdown()
        let client = ConnectionLog()
        loop.connect(
            to: try SocketAddress(host: "127.0.0.1", port: 9),
            timeout: .seconds(1),
            makeHandler: RecordingConnectionHandler.factory(client)
        )
        #expect(client.snapshot.failures.map(\.code) == [.cancelled])
    }
}
