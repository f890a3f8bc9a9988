import HearthNet
import HearthTestKit
import Testing

@Suite struct DialerLoopbackTests {
    /// Collects a dialer's events in the background until it stops.
    private func record(_ dialer: Dialer) -> (Recorder<Dialer.Event>, Task<Void, Never>) {
        let events = Recorder<Dialer.Event>()
        let task = Task {
            for await event in dialer.events { events.append(event) }
        }
        return (events, task)
    }

    /// The retry delays of the failures at the start of `events`, with their error codes.
    private func leadingFailures(_ events: [Dialer.Event]) -> [(IOError.Code, Duration)] {
        var failures: [(IOError.Code, Duration)] = []
        for event in events {
            guard case .connectFailed(let error, let delay) = event else { break }
            failures.append((error.code, delay))
        }
        return failures
    }

    /// A refused peer is redialled after growing, jittered delays — exactly the `Backoff` schedule for the seed —
    /// and the dialer connects as soon as the peer starts listening.
    @Test(.timeLimit(.minutes(1))) func retriesARefusedPeerWithBackoffUntilItListens() async throws {
        let peer = try ReservedPort()
        let backoff = Backoff(initial: .milliseconds(10), maximum: .milliseconds(40), multiplier: 2, jitter: 0.5)
        try await withEventLoop { loop in
            let dialer = Dialer(
                connectingTo: try peer.address,
                on: loop,
                configuration: .init(connectTimeout: .seconds(1), backoff: backoff),
                random: SeededRandom(seed: 7),
                makeHandler: RecordingConnectionHandler.factory(ConnectionLog())
            )
            let (events, task) = self.record(dialer)
            #expect(await events.wait { $0.count >= 4 })
            try peer.listen()
            #expect(await events.wait { $0.contains(.connected) })
            dialer.stop()
            peer.close()
            await task.value

            let failures = self.leadingFailures(events.all)
            #expect(failures.count >= 4)
            var expected = backoff
            var random = SeededRandom(seed: 7)
            for (code, delay) in failures {
                #expect(code == .connectionRefused)
                #expect(delay == expected.nextDelay(using: &random))
            }
            #expect(events.all.suffix(2) == [.connected, .stopped])
        }
    }

    /// When the peer closes the connection, the dialer reconnects after the initial delay (the back-off was reset
    /// by the success), and the new connection carries bytes.
    @Test(.timeLimit(.minutes(1))) func reconnectsAfterThePeerCloses() async throws {
        let server = ConnectionLog()
        let client = ConnectionLog()
        let listener = try recordingListener(server, .init(closeFirst: 1))
        let backoff = Backoff(initial: .milliseconds(20), maximum: .seconds(1), jitter: 0)
        try await withEventLoop(listener: listener) { loop in
            let dialer = Dialer(
                connectingTo: try SocketAddress(host: "127.0.0.1", port: listener.port),
                on: loop,
                configuration: .init(connectTimeout: .seconds(1), backoff: backoff),
                makeHandler: RecordingConnectionHandler.factory(client)
            )
            let (events, task) = self.record(dialer)
            #expect(await events.wait { $0.filter { $0 == .connected }.count == 2 })
            #expect(events.all == [.connected, .disconnected(nil, retryAfter: .milliseconds(20)), .connected])
            let writer = try #require(client.snapshot.writers.last)
            #expect(writer.write(Array("again".utf8)))
            #expect(await server.wait { $0.received == Array("again".utf8) })
            #expect(server.snapshot.opened == 2)
            dialer.stop()
            await task.value
            #expect(events.all.last == .stopped)
        }
    }

    /// A dialer that resets only on confirmation, against a peer that accepts and closes every connection at once (as
    /// one refusing the handshake does), waits longer and longer between connections, up to the cap.
    @Test(.timeLimit(.minutes(1))) func unconfirmedConnectionsKeepTheBackoffGrowing() async throws {
        let listener = try recordingListener(ConnectionLog(), .init(closeFirst: 1_000))
        let backoff = Backoff(initial: .milliseconds(10), maximum: .milliseconds(40), jitter: 0)
        try await withEventLoop(listener: listener) { loop in
            let dialer = Dialer(
                connectingTo: try SocketAddress(host: "127.0.0.1", port: listener.port),
                on: loop,
                configuration: .init(connectTimeout: .seconds(1), backoff: backoff, reset: .onConfirmation),
                makeHandler: RecordingConnectionHandler.factory(ConnectionLog())
            )
            let (events, task) = self.record(dialer)
            #expect(await events.wait { $0.filter { $0 == .connected }.count >= 5 })
            dialer.stop()
            await task.value
            let delays = events.all.compactMap { event -> Duration? in
                guard case .disconnected(_, let delay) = event else { return nil }
                return delay
            }
            let expected: [Duration] = [10, 20, 40, 40].map { .milliseconds($0) }
            #expect(Array(delays.prefix(4)) == expected)
        }
    }

    /// A dial that never completes fails with `timedOut` after the connect timeout and is tried again.
    @Test(.timeLimit(.minutes(1))) func retriesADialThatTimesOut() async throws {
        let silent = try UnacceptingListener()
        try await withEventLoop { loop in
            let dialer = Dialer(
                connectingTo: try silent.address,
                on: loop,
                configuration: .init(
                    connectTimeout: .milliseconds(100),
                    backoff: Backoff(initial: .milliseconds(10), jitter: 0)
                ),
                makeHandler: RecordingConnectionHandler.factory(ConnectionLog())
            )
            let (events, task) = self.record(dialer)
            #expect(await events.wait { $0.count >= 2 })
            dialer.stop()
            await task.value
            let failures = self.leadingFailures(events.all)
            #expect(failures.map(\.0).prefix(2) == [.timedOut, .timedOut])
            #expect(failures.map(\.1).prefix(2) == [.milliseconds(10), .milliseconds(20)])
            #expect(events.all.last == .stopped)
        }
    }

    /// Shutting down the loop stops its dialers: the connection closes cleanly at the peer and nothing redials.
    @Test(.timeLimit(.minutes(1))) func stopsWhenTheLoopShutsDown() async throws {
        let server = ConnectionLog()
        let listener = try recordingListener(server)
        try await withEventLoop(listener: listener) { _ in
            let clientLoop = try EventLoop()
            let dialer = Dialer(
                connectingTo: try SocketAddress(host: "127.0.0.1", port: listener.port),
                on: clientLoop,
                configuration: .init(backoff: Backoff(initial: .milliseconds(10), jitter: 0)),
                makeHandler: RecordingConnectionHandler.factory(ConnectionLog())
            )
            let (events, task) = self.record(dialer)
            #expect(await events.wait { $0.contains(.connected) })
            try await clientLoop.shutdown(gracePeriod: .seconds(1))
            await task.value
            #expect(events.all == [.connected, .stopped])
            #expect(await server.wait { $0.closes == [nil] })
            #expect(server.snapshot.opened == 1)
        }
    }
}
