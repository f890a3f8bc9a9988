import Foundation
import HearthSystem
import HearthTestKit
import Testing

/// What realtime clients see when a node is stopped with SIGTERM.
@Suite(.serialized) struct ShutdownProcessTests {
    @Test func sigtermClosesRealtimeClientsWithGoingAwayAndRunsTheirOnDisconnects() async throws {
        let server = try await ServerProcess()
        let port = server.port
        let process = server.process
        let close = try await onDedicatedThread { () -> (code: UInt16?, reason: String) in
            let client = try WebSocketTestClient(port: port, target: "/.ws?v=5&ns=default")
            _ = try client.readText()
            try client.sendText(#"{"t":"d","d":{"r":1,"a":"o","b":{"p":"/presence/me","d":"offline"}}}"#)
            _ = try client.readText()
            process.signal(SIGTERM)
            return try client.readClose()
        }
        await server.exited()
        #expect(close.code == 1001)
        #expect(server.process.termination == .exited(0))
        let restarted = try await ServerProcess(dataDirectory: server.dataDirectory)
        defer { restarted.terminate() }
        #expect(
            try await HTTPTestClient.request(port: restarted.port, "GET", "/presence/me.json").text == #""offline""#)
    }

    /// A long-polling browser's held disconnect frame (`/.lp?dframe=t`) does not hold the node up: SIGTERM ends the
    /// frame's chunked reply at once, and the session's onDisconnects run before the process exits.
    @Test func sigtermEndsAHeldDisconnectFrameAndRunsTheLongPollSessionsOnDisconnects() async throws {
        let server = try await ServerProcess()
        let port = server.port
        let process = server.process
        let (page, signalled) = try await onDedicatedThread { () -> (String, ContinuousClock.Instant) in
            let session = try LongPollTestSession(port: port, namespace: "default")
            _ = try session.send(#"{"t":"d","d":{"r":1,"a":"o","b":{"p":"/presence/lp","d":"offline"}}}"#)
            let (frame, _) = try session.openDisconnectFrame()
            let signalled = ContinuousClock.now
            process.signal(SIGTERM)
            return (String(decoding: frame.readUntilClosed(), as: UTF8.self), signalled)
        }
        await server.exited()
        let stopped = ContinuousClock.now - signalled
        #expect(stopped < .seconds(5), "the node took \(stopped) to stop")
        #expect(page.hasSuffix("0\r\n\r\n"), "the chunked reply ends properly: \(page)")
        #expect(server.process.termination == .exited(0))
        let restarted = try await ServerProcess(dataDirectory: server.dataDirectory)
        defer { restarted.terminate() }
        #expect(
            try await HTTPTestClient.request(port: restarted.port, "GET", "/presence/lp.json").text == #""offline""#)
    }
}
