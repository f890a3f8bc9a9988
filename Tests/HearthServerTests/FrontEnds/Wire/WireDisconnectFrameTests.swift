import Foundation
import HearthCore
import HearthTestKit
import Testing

@testable import HearthServer

/// The long-poll disconnect frame (`/.lp?dframe=t`, reference §1.12): held open for the life of the session, its
/// close is the browser going away, so onDisconnects run at once instead of after the stale-poll timeout.
@Suite struct WireDisconnectFrameTests {
    private static let registerPresence = #"{"t":"d","d":{"r":1,"a":"o","b":{"p":"/presence/lp","d":"offline"}}}"#
    private static let emptyPage = "<html><body></body></html>"

    /// Reads `/presence/lp` over REST until it is `"offline"` or `seconds` pass; returns the last value and when it
    /// was read.
    private static func waitForOffline(_ rest: HTTPTestClient, seconds: Double) throws -> (
        String, ContinuousClock.Instant
    ) {
        let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
        var value = try rest.request("GET", "/presence/lp.json?ns=lp").text
        while value != #""offline""#, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.005)
            value = try rest.request("GET", "/presence/lp.json?ns=lp").text
        }
        return (value, .now)
    }

    /// "At once" is bounded loosely (a loaded CI machine took 1.3 s): what matters is that it is not the 60 s a
    /// stale session takes to be noticed.
    @Test func closingTheDisconnectFrameRunsOnDisconnectAtOnce() async throws {
        try await TestNode.with { node in
            try await onDedicatedThread {
                let session = try LongPollTestSession(port: node.port)
                let registered = try session.send(Self.registerPresence)
                let response = try #require(try LongPollTestSession.messages(in: registered, response: 1).first)
                #expect(response["d"]?["r"] == .int(1) && response["d"]?["b"]?["s"] == .string("ok"))
                let (frame, head) = try session.openDisconnectFrame()
                #expect(head.status == 200 && head.header("Transfer-Encoding") == "chunked")
                let rest = try HTTPTestClient(port: node.port)
                Thread.sleep(forTimeInterval: 0.2)
                #expect(try rest.request("GET", "/presence/lp.json?ns=lp").text == "null")
                let closed = ContinuousClock.now
                frame.disconnect()
                let (value, seen) = try Self.waitForOffline(rest, seconds: 15)
                #expect(value == #""offline""#)
                #expect(seen - closed < .seconds(10), "onDisconnect ran \(seen - closed) after the frame closed")
            }
        }
    }

    @Test func upgradingToWebSocketReleasesTheFrameWithoutEndingTheSession() async throws {
        try await TestNode.with { node in
            try await onDedicatedThread {
                let session = try LongPollTestSession(port: node.port)
                _ = try session.send(Self.registerPresence)
                let (frame, _) = try session.openDisconnectFrame()
                let socket = try WireTestClient.upgrading(port: node.port, session: session.id)
                try socket.sendText(#"{"t":"c","d":{"t":"p","d":{}}}"#)
                #expect(try socket.readText() == #"{"t":"c","d":{"t":"o","d":null}}"#)
                try socket.sendText(#"{"t":"c","d":{"t":"a","d":{}}}"#)
                let closing = try session.send(#"{"t":"c","d":{"t":"n","d":{}}}"#)
                #expect(closing.contains("pLPCommand('close'"))
                let page = String(decoding: frame.readUntilClosed(), as: UTF8.self)
                #expect(page.contains(Self.emptyPage))
                try socket.sendText(#"{"t":"d","d":{"r":2,"a":"g","b":{"p":"/presence/lp","q":{}}}}"#)
                let reply = try json(try socket.readText())
                #expect(reply["d"]?["r"] == .int(2) && reply["d"]?["b"]?["d"] == .null)
                socket.abort()
                let (value, _) = try Self.waitForOffline(try HTTPTestClient(port: node.port), seconds: 5)
                #expect(value == #""offline""#)
            }
        }
    }

    @Test func aFrameForNoLiveSessionIsAnsweredAtOnce() async throws {
        try await TestNode.with { node in
            try await onDedicatedThread {
                let session = try LongPollTestSession(port: node.port)
                let (_, head) = try session.openDisconnectFrame(password: "wrong")
                #expect(head.status == 200 && head.text == Self.emptyPage)
                let answered = try session.send(#"{"t":"d","d":{"r":1,"a":"g","b":{"p":"/","q":{}}}}"#)
                let response = try #require(try LongPollTestSession.messages(in: answered, response: 1).first)
                #expect(response["d"]?["b"]?["s"] == .string("ok"))
            }
        }
    }

    /// A held frame is a stream the node ends when it stops (with the empty page, or just the end of the chunked
    /// body when the server's drain gets there first): stopping stays prompt.
    @Test func aHeldFrameDoesNotDelayAGracefulStop() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let directory = temporary.path
        let (signals, signal) = AsyncStream.makeStream(of: Void.self)
        let (reader, stopping) = try await TestNode.with(dataDirectory: directory) { node in
            let reader = Task {
                try await onDedicatedThread {
                    let session = try LongPollTestSession(port: node.port)
                    _ = try session.send(Self.registerPresence)
                    let (frame, _) = try session.openDisconnectFrame()
                    signal.yield()
                    return String(decoding: frame.readUntilClosed(), as: UTF8.self)
                }
            }
            var iterator = signals.makeAsyncIterator()
            await iterator.next()
            return (reader, ContinuousClock.now)
        }
        let stopped = ContinuousClock.now - stopping
        #expect(stopped < .seconds(5), "stopping took \(stopped)")
        let page = try await reader.value
        #expect(page.hasSuffix("0\r\n\r\n"), "the chunked reply ends properly: \(page)")
        let presence = try await TestNode.with(dataDirectory: directory) { node in
            try await node.request("GET", "/presence/lp.json?ns=lp").text
        }
        #expect(presence == #""offline""#)
    }
}
