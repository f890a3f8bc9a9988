import Glibc
import HearthNet
import HearthTestKit
import Synchronization
import Testing

/// An accept function that fails with a chosen errno while told to, and counts every call; otherwise it accepts
/// for real. Failing leaves the connection queued, exactly as `EMFILE` does.
final class ScriptedAccept: Sendable {
    private struct State {
        var errorNumber: Int32?
        var remainingFailures = 0
        var calls = 0
    }

    private let state = Mutex(State())

    /// How many times the reactor has called `accept`.
    var calls: Int { self.state.withLock { $0.calls } }

    /// Fails the next `times` calls with `errorNumber`.
    func fail(with errorNumber: Int32, times: Int = .max) {
        self.state.withLock {
            $0.errorNumber = errorNumber
            $0.remainingFailures = times
        }
    }

    func succeed() {
        self.state.withLock { $0.remainingFailures = 0 }
    }

    /// Succeeds from the next attempt on, an attempt being `callsPerAttempt` calls counted from the first (out of
    /// descriptors, the reactor tries `accept` and then once more on its spare descriptor): an attempt under way
    /// fails to its end, as it would if descriptors came back a moment later. Needs failures from the first call.
    func succeed(finishingAttemptsOf callsPerAttempt: Int) {
        self.state.withLock { state in
            state.remainingFailures = (callsPerAttempt - state.calls % callsPerAttempt) % callsPerAttempt
        }
    }

    var function: AcceptFunction {
        { listener throws(IOError) in
            let failure: Int32? = self.state.withLock { state in
                state.calls += 1
                guard state.remainingFailures > 0, let errorNumber = state.errorNumber else { return nil }
                state.remainingFailures -= 1
                return errorNumber
            }
            if let failure { throw IOError(.syscallFailed, "accept4 failed (scripted)", errorNumber: failure) }
            return try HTTPServer.systemAccept(listener)
        }
    }

    /// Polls until `calls` exceeds `count` or `seconds` pass.
    func waitForCalls(moreThan count: Int, seconds: Double = 30) -> Bool {
        eventuallyBlocking(seconds: seconds) { self.calls > count }
    }
}

@Suite struct ReactorAcceptTests {
    private let ok = TestHandler { _ in .response(HTTPResponse(status: 200, body: Array("ok".utf8))) }

    private func server(_ script: ScriptedAccept, backoffSeconds: Double) -> HTTPServer {
        HTTPServer(
            configuration: .loopback(),
            handler: self.ok,
            acceptBackoffSeconds: backoffSeconds,
            accept: script.function
        )
    }

    /// While `accept` keeps failing the listener is paused, not polled: a handful of attempts in 200 ms where a
    /// spinning level-triggered listener makes tens of thousands; the back-off timer alone re-arms it, so the
    /// queued client is served once descriptors are back.
    @Test(.timeLimit(.minutes(1)), arguments: [EMFILE, ENFILE, ENOBUFS, ENOMEM])
    func pausesTheListenerInsteadOfSpinning(errorNumber: Int32) async throws {
        let script = ScriptedAccept()
        script.fail(with: errorNumber)
        try await withServer(self.server(script, backoffSeconds: 0.05)) { server, port in
            let (attempts, status) = try await onDedicatedThread {
                let client = try HTTPTestClient(port: port)
                try client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
                guard script.waitForCalls(moreThan: 0) else { return (0, 0) }
                let start = script.calls
                usleep(200_000)
                let attempts = script.calls - start
                // Succeeding between the failed accept and the spare descriptor's would turn the client away
                // (503) with the spare: on a loaded machine that window is wide enough to land in.
                script.succeed(finishingAttemptsOf: [EMFILE, ENFILE].contains(errorNumber) ? 2 : 1)
                return (attempts, try client.readResponse().status)
            }
            // Out of descriptors, each attempt also tries the spare descriptor once.
            #expect(attempts <= 20, "\(attempts) accept attempts in 200 ms: the listener spins")
            #expect(status == 200)
            let statistics = server.statistics
            #expect(statistics.acceptFailures >= UInt64(attempts))
            #expect(statistics.acceptedConnections == 1)
        }
    }

    /// A closing connection frees a descriptor, so the paused listener is watched again at once: with an hour's
    /// back-off, the queued client is served only because the first client left. (The first client is in the
    /// middle of a request, so it is not idle and cannot be closed to make room.)
    @Test(.timeLimit(.minutes(1))) func resumesAcceptingAsSoonAsAConnectionCloses() async throws {
        let script = ScriptedAccept()
        try await withServer(self.server(script, backoffSeconds: 3600)) { server, port in
            let (idleAttempts, status) = try await onDedicatedThread {
                let first = try HTTPTestClient(port: port)
                try first.send("GET / HTTP/1.1\r\n")
                // The first client's accept and the one after it that finds nothing queued (the reactor accepts
                // until the queue is empty): failing before that second call would fail it instead, on a loaded
                // machine, and the listener would pause before the second client came.
                guard script.waitForCalls(moreThan: 1) else { return (-1, 0) }
                // Exactly the second client's attempt fails: its accept and the one on the spare descriptor.
                // (Succeeding once the first had failed let the spare's succeed on a loaded machine, and the
                // client was turned away with the spare.)
                script.fail(with: EMFILE, times: 2)
                let before = script.calls
                let second = try HTTPTestClient(port: port)
                try second.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
                guard script.waitForCalls(moreThan: before + 1) else { return (-1, 0) }
                let paused = script.calls
                usleep(200_000)
                let idleAttempts = script.calls - paused
                first.shutdownWrite()
                return (idleAttempts, try second.readResponse().status)
            }
            #expect(idleAttempts == 0, "the listener stays paused until a connection closes")
            #expect(status == 200, "the close re-armed the listener long before the back-off ended")
            // The failed accept and the one tried on the spare descriptor.
            #expect(server.statistics.acceptFailures == 2)
        }
    }

    /// Out of descriptors with an idle keep-alive connection open: it is closed, and the waiting client served in
    /// its place.
    @Test(.timeLimit(.minutes(1))) func outOfDescriptorsClosesTheLongestIdleConnection() async throws {
        let script = ScriptedAccept()
        try await withServer(self.server(script, backoffSeconds: 3600)) { server, port in
            let (idleClosed, status) = try await onDedicatedThread {
                let idle = try HTTPTestClient(port: port)
                try idle.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
                _ = try idle.readResponse()
                script.fail(with: EMFILE, times: 1)
                let client = try HTTPTestClient(port: port)
                try client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
                let status = try client.readResponse().status
                return (idle.isClosedByServer(), status)
            }
            #expect(idleClosed)
            #expect(status == 200)
            #expect(server.statistics.idleClosedForRoom == 1)
        }
    }

    /// Out of descriptors with nothing idle: the spare descriptor is given up for a moment to accept the client
    /// and answer it 503 with `Retry-After`, rather than leave it waiting in the backlog.
    @Test(.timeLimit(.minutes(1))) func outOfDescriptorsTurnsAwayWithTheSpareDescriptor() async throws {
        let script = ScriptedAccept()
        try await withServer(self.server(script, backoffSeconds: 3600)) { server, port in
            let (refusal, busyStatus) = try await onDedicatedThread {
                let busy = try HTTPTestClient(port: port)
                try busy.send("GET / HTTP/1.1\r\n")
                _ = script.waitForCalls(moreThan: 0)
                script.fail(with: EMFILE, times: 1)
                let client = try HTTPTestClient(port: port)
                try client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
                let refusal = try client.readResponse()
                try busy.send("Host: h\r\n\r\n")
                return (refusal, try busy.readResponse().status)
            }
            #expect(refusal.status == 503)
            #expect(refusal.header("Retry-After") == "1")
            #expect(refusal.text.contains("retry in a moment"))
            #expect(busyStatus == 200)
            #expect(server.statistics.refusedConnections == 1)
        }
    }

    /// At `maximumConnections` the longest-idle keep-alive connection makes room; with none idle the new client
    /// is answered 503 and closed.
    @Test(.timeLimit(.minutes(1))) func atTheConnectionLimitClosesIdleThenRefuses() async throws {
        var configuration = HTTPServerConfiguration.loopback()
        configuration.maximumConnections = 2
        try await withServer(configuration, handler: self.ok) { server, port in
            let outcome = try await onDedicatedThread { () -> (Bool, Bool, Int, Int) in
                let older = try HTTPTestClient(port: port)
                try older.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
                _ = try older.readResponse()
                usleep(10_000)
                let newer = try HTTPTestClient(port: port)
                try newer.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
                _ = try newer.readResponse()
                let third = try HTTPTestClient(port: port)
                try third.send("GET / HTTP/1.1\r\n")
                // `older` made room for `third`; `newer` is idle still, so it makes room for `fourth`.
                let fourth = try HTTPTestClient(port: port)
                try fourth.send("GET / HTTP/1.1\r\n")
                let fifth = try HTTPTestClient(port: port)
                try fifth.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
                let refused = try fifth.readResponse().status
                try third.send("Host: h\r\n\r\n")
                return (older.isClosedByServer(), newer.isClosedByServer(), refused, try third.readResponse().status)
            }
            #expect(outcome.0 && outcome.1, "both idle connections were closed to make room")
            #expect(outcome.2 == 503)
            #expect(outcome.3 == 200)
            #expect(server.statistics.idleClosedForRoom == 2)
            #expect(server.statistics.refusedConnections == 1)
        }
    }

    /// An error that only concerns the pending connection (here `ECONNABORTED`) skips it without pausing.
    @Test(.timeLimit(.minutes(1))) func passesOverAbortedConnectionsWithoutPausing() async throws {
        let script = ScriptedAccept()
        script.fail(with: ECONNABORTED, times: 1)
        try await withServer(self.server(script, backoffSeconds: 3600)) { server, port in
            let status = try await onDedicatedThread {
                let client = try HTTPTestClient(port: port)
                try client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
                return try client.readResponse().status
            }
            #expect(status == 200)
            #expect(server.statistics.acceptFailures == 0)
        }
    }

    /// Graceful shutdown does not wait for the (here hour-long) back-off timer of a paused listener.
    @Test(.timeLimit(.minutes(1))) func shutsDownWhileThePausedListenerWaits() async throws {
        let script = ScriptedAccept()
        script.fail(with: EMFILE)
        try await withServer(self.server(script, backoffSeconds: 3600)) { _, port in
            let attempted = try await onDedicatedThread {
                let client = try HTTPTestClient(port: port)
                return withExtendedLifetime(client) { script.waitForCalls(moreThan: 0) }
            }
            #expect(attempted)
        }
        // The failed accept and the one tried on the spare descriptor.
        #expect(script.calls == 2)
    }
}
