import Foundation
import HearthCore
import HearthTestKit
import Testing

@testable import HearthServer

/// The `/.lp` transport and its upgrade to WebSocket, driven with plain HTTP requests like a browser's script tags.
@Suite struct WireLongPollTests {
    @Test func longPollSessionHandshakesAnswersAndUpgradesToWebSocket() async throws {
        try await TestNode.with { node in
            try await onDedicatedThread {
                let http = try HTTPTestClient(port: node.port)
                let start = try http.request("GET", "/.lp?start=t&ser=123&cb=7&v=5&ns=lp").text
                #expect(start.contains(#"parent.window["pRTLPCB7"]"#))
                let command = try #require(start.range(of: "pLPCommand('start','"))
                let fields = start[command.upperBound...].split(separator: "'")
                let (id, password) = (String(fields[0]), String(fields[2]))
                let handshake = try #require(try LongPollTestSession.messages(in: start, response: 0).first)
                #expect(handshake["d"]?["d"]?["s"] == .string(id))

                let put = #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/lp/x","d":"via long poll"}}}"#
                let encoded = LongPollTestSession.webSafe(put)
                let half = encoded.index(encoded.startIndex, offsetBy: encoded.count / 2)
                let answered = try http.request(
                    "GET",
                    "/.lp?id=\(id)&pw=\(password)&ser=1&seg0=1&ts0=2&d0=\(encoded[half...])&seg1=0&ts1=2&d1=\(encoded[..<half])"
                ).text
                let response = try #require(try LongPollTestSession.messages(in: answered, response: 1).first)
                #expect(response["d"]?["r"] == .int(1) && response["d"]?["b"]?["s"] == .string("ok"))

                let socket = try WireTestClient.upgrading(port: node.port, session: id)
                try socket.sendText(#"{"t":"c","d":{"t":"p","d":{}}}"#)
                #expect(try socket.readText() == #"{"t":"c","d":{"t":"o","d":null}}"#)
                try socket.sendText(#"{"t":"c","d":{"t":"a","d":{}}}"#)
                try socket.sendText(#"{"t":"d","d":{"r":2,"a":"g","b":{"p":"/lp/x","q":{}}}}"#)
                let end = LongPollTestSession.webSafe(#"{"t":"c","d":{"t":"n","d":{}}}"#)
                let closing = try http.request("GET", "/.lp?id=\(id)&pw=\(password)&ser=3&seg0=2&ts0=1&d0=\(end)").text
                #expect(closing.contains(#""t":"n""#) && closing.contains("pLPCommand('close'"))
                let reply = try json(try socket.readText())
                #expect(reply["d"]?["r"] == .int(2) && reply["d"]?["b"]?["d"] == .string("via long poll"))
            }
        }
    }
}

extension WireTestClient {
    /// A raw WebSocket opened as the upgrade of long-polling session `session` (no handshake is sent on it).
    static func upgrading(port: Int, session: String) throws -> WebSocketTestClient {
        try WebSocketTestClient(port: port, target: "/.ws?v=5&ns=lp&s=\(session)")
    }
}
