import Foundation
import HearthCore
import HearthTestKit
import Testing

@testable import HearthNode
@testable import HearthServer

/// What one realtime client can make a node hold is bounded: long-poll segments, listens, onDisconnect operations
/// and what is sent before a long poll's switch to WebSocket; past a bound the client gets a clear refusal and the
/// node keeps answering everyone.
@Suite struct WireSessionBoundsTests {
    /// A poll of `session` carrying raw segment parameters (`seg`, `ts`, `d` triples, as text).
    private static func poll(_ session: LongPollTestSession, _ segments: [(String, String, String)]) throws -> String {
        let query = segments.enumerated().map { "seg\($0)=\($1.0)&ts\($0)=\($1.1)&d\($0)=\($1.2)" }
            .joined(separator: "&")
        return try session.http.request("GET", "/.lp?id=\(session.id)&pw=\(session.password)&ser=2&\(query)").text
    }

    /// The issue's crash: a poll whose first segment completes a message and whose second announces
    /// 9223372036854775807 segments ends that session with a shutdown reason; the node keeps answering.
    @Test func aLongPollTotalOfIntMaxEndsTheSessionAndTheNodeStaysUp() async throws {
        try await TestNode.with { node in
            try await onDedicatedThread {
                let session = try LongPollTestSession(port: node.port)
                let get = LongPollTestSession.webSafe(#"{"t":"d","d":{"r":1,"a":"g","b":{"p":"/x","q":{}}}}"#)
                let script = try Self.poll(session, [("0", "1", get), ("1", "9223372036854775807", "e30.")])
                #expect(script.contains(#""t":"s""#) && script.contains("segments"))
                #expect(script.contains("pLPCommand('close'"))
            }
            #expect(try await node.request("GET", "/x.json").status == 200)
        }
    }

    /// A segment numbered far ahead of the next expected one, or negative, ends the session with the reason.
    @Test func farAheadAndNegativeSegmentsEndTheLongPollSession() async throws {
        try await TestNode.with { node in
            try await onDedicatedThread {
                for number in ["100000", "-1"] {
                    let session = try LongPollTestSession(port: node.port)
                    let script = try Self.poll(session, [(number, "1", "e30.")])
                    #expect(script.contains(#""t":"s""#), "\(number)")
                    #expect(script.contains("pLPCommand('close'"), "\(number)")
                }
            }
            #expect(try await node.request("GET", "/.json").status == 200)
        }
    }

    /// Long-polling sessions together hold no more than `--max-client-memory`: the session whose segments would
    /// pass it is ended with the reason, and closing a session gives its bytes back.
    @Test func longPollSessionsTogetherAreHeldToTheClientMemoryLimit() async throws {
        try await TestNode.with(configure: { $0.maximumClientMemory = 1 << 20 }) { node in
            try await onDedicatedThread {
                let ping = LongPollTestSession.webSafe(#"{"t":"c","d":{"t":"p","d":{}}}"#)
                let data = String(repeating: "A", count: 1800)
                /// Polls carrying a ping (so each is answered at once) and 14 segments held ahead (about 108 KB per
                /// session in all); whether a poll's script ended the session.
                func fill(_ session: LongPollTestSession) throws -> Bool {
                    try (0..<4).contains { poll in
                        let ahead = (0..<14).map { ("\(10 + 14 * poll + $0)", "1", data) }
                        return try Self.poll(session, [("\(poll)", "1", ping)] + ahead).contains(#""t":"s""#)
                    }
                }
                var refusals: [Bool] = []
                for _ in 0..<12 where !refusals.contains(true) {
                    refusals.append(try fill(try LongPollTestSession(port: node.port)))
                }
                #expect(!refusals.prefix(8).contains(true))
                #expect(refusals.contains(true))
            }
            let metrics = try await node.request("GET", "/.metrics").text
            #expect(metrics.contains("hearth_wire_long_poll_refused_total 1"))
        }
    }

    /// A long-polling session's listens are charged to the long-polling pool: past it the session is closed, as a
    /// WebSocket is evicted, and what it held is given back.
    @Test func longPollListensAreChargedToThePool() async throws {
        try await TestNode.with(configure: { $0.maximumClientMemory = 1 << 20 }) { node in
            try await onDedicatedThread {
                let session = try LongPollTestSession(port: node.port)
                var script = ""
                var next = 0
                for poll in 0..<20 where !script.contains("pLPCommand('close'") {
                    let segments = (0..<60).map { index -> (String, String, String) in
                        let listen =
                            #"{"t":"d","d":{"r":\#(next + index + 1),"a":"q","b":{"p":"/l/\#(poll)/\#(index)","h":""}}}"#
                        return ("\(next + index)", "1", LongPollTestSession.webSafe(listen))
                    }
                    next += segments.count
                    script = try Self.poll(session, segments)
                }
                #expect(script.contains("pLPCommand('close'"))
            }
            let metrics = try await node.request("GET", "/.metrics").text
            #expect(metrics.contains("hearth_wire_long_poll_bytes 0"))
        }
    }

    /// A listen past `--max-listens-per-session` is refused with `too_many_listens`; dropping one makes room.
    @Test func listensPastTheLimitAreRefused() async throws {
        try await TestNode.with(configure: { $0.maximumListensPerSession = 3 }) { node in
            try await onDedicatedThread {
                let client = try WireTestClient(port: node.port)
                for index in 0..<3 {
                    #expect(try client.call("q", #"{"p":"/l/\#(index)","h":""}"#)["s"] == .string("ok"))
                }
                #expect(try client.call("q", #"{"p":"/l/0","h":""}"#)["s"] == .string("ok"))
                let refused = try client.call("q", #"{"p":"/l/3","h":""}"#)
                #expect(refused["s"] == .string("too_many_listens"))
                #expect(refused["d"]?.stringValue?.contains("3 listens") == true)
                #expect(try client.call("n", #"{"p":"/l/1"}"#)["s"] == .string("ok"))
                #expect(try client.call("q", #"{"p":"/l/3","h":""}"#)["s"] == .string("ok"))
            }
            let metrics = try await node.request("GET", "/.metrics").text
            #expect(metrics.contains(#"hearth_wire_requests_total{action="q",status="too_many_listens"} 1"#))
        }
    }

    /// onDisconnect operations past the count or the bytes a session may hold are refused, nothing is queued,
    /// and cancelling makes room.
    @Test func onDisconnectsPastTheLimitsAreRefused() async throws {
        try await TestNode.with(configure: {
            $0.maximumOnDisconnectsPerSession = 2
            $0.maximumOnDisconnectBytesPerSession = 4096
        }) { node in
            try await onDedicatedThread {
                let client = try WireTestClient(port: node.port)
                #expect(try client.call("o", #"{"p":"/od/a","d":1}"#)["s"] == .string("ok"))
                #expect(try client.call("o", #"{"p":"/od/b","d":2}"#)["s"] == .string("ok"))
                let third = try client.call("o", #"{"p":"/od/c","d":3}"#)
                #expect(third["s"] == .string("too_many_ondisconnects"))
                #expect(try client.call("oc", #"{"p":"/od/b"}"#)["s"] == .string("ok"))
                let big = String(repeating: "x", count: 5000)
                #expect(try client.call("o", #"{"p":"/od/d","d":"\#(big)"}"#)["s"] == .string("too_many_ondisconnects"))
                #expect(try client.call("o", #"{"p":"/od/c","d":3}"#)["s"] == .string("ok"))
                client.socket.disconnect()
            }
            var stored = ""
            #expect(
                await eventually(every: 0.1) {
                    stored = (try? await node.request("GET", "/od.json?ns=wiretest").text) ?? ""
                    return stored == #"{"a":1,"c":3}"#
                }, "\(stored)")
        }
    }

    /// A token whose `exp` is beyond any timer's range, sent again and again, is accepted without trapping and
    /// keeps at most one expiry timer.
    @Test func aFarFutureExpiryNeitherTrapsNorPilesUpTimers() async throws {
        try await TestNode.with(configure: { $0.databaseSecrets = ["bounds-secret"] }) { node in
            try await onDedicatedThread {
                let client = try WireTestClient(port: node.port)
                let token = TestTokens.hs256(#"{"d":{"uid":"ada"},"exp":1e300}"#, secret: "bounds-secret")
                for _ in 0..<50 {
                    #expect(try client.call("auth", #"{"cred":"\#(token)"}"#)["s"] == .string("ok"))
                }
            }
            #expect(try await node.request("GET", "/.json").status == 200)
        }
    }

    /// What the client sends on the new WebSocket before the long poll's `n` is held only up to
    /// `--max-queued-bytes`; past it the session ends.
    @Test func theUpgradeBufferIsBounded() async throws {
        try await TestNode.with(configure: { $0.maximumWireQueuedBytes = 2048 }) { node in
            try await onDedicatedThread {
                let session = try LongPollTestSession(port: node.port)
                let socket = try WireTestClient.upgrading(port: node.port, session: session.id)
                let get =
                    #"{"t":"d","d":{"r":1,"a":"g","b":{"p":"/"# + String(repeating: "y", count: 500) + #"","q":{}}}}"#
                for _ in 0..<8 { try socket.sendText(get) }
                #expect(try socket.readClose().reason.contains("unprocessed"))
            }
        }
    }
}
