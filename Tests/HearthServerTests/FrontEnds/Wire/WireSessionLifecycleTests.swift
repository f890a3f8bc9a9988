import Foundation
import HearthCore
import HearthTestKit
import Testing

@testable import HearthNode
@testable import HearthServer

/// Session ends, onDisconnect, bad input, large messages and slow readers over a real socket.
@Suite struct WireSessionLifecycleTests {
    /// Polls `/path` with `get` until `done` holds (onDisconnects run just after the socket drops; on a starved
    /// machine, seconds after) and returns the last value read.
    private static func eventually(
        _ client: WireTestClient, _ path: String, _ done: (JSONValue?) -> Bool
    ) throws -> JSONValue? {
        var value: JSONValue?
        _ = try eventuallyBlocking(every: 0.01) {
            value = try client.call("g", #"{"p":"\#(path)","q":{}}"#)["d"]
            return done(value)
        }
        return value
    }

    @Test func onDisconnectRunsOnAbruptCloseWithServerTimestampAndCancel() async throws {
        try await TestNode.with { node in
            try await onDedicatedThread {
                let observer = try WireTestClient(port: node.port)
                let client = try WireTestClient(port: node.port)
                #expect(
                    try client.call("o", #"{"p":"/presence/ada","d":{"online":false,"seen":{".sv":"timestamp"}}}"#)["s"]
                        == .string("ok"))
                _ = try client.call("om", #"{"p":"/status","d":{"ada":"offline","count":{".sv":{"increment":1}}}}"#)
                _ = try client.call("o", #"{"p":"/cancelled/one","d":1}"#)
                _ = try client.call("o", #"{"p":"/cancelled/two/deep","d":2}"#)
                #expect(try client.call("oc", #"{"p":"/cancelled","d":null}"#)["s"] == .string("ok"))
                let bad = try client.call("o", #"{"p":"/x","d":{"a.b":1}}"#)
                #expect(bad["s"] == .string("invalid_data"))
                let before = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
                client.socket.abort()
                let presence = try Self.eventually(observer, "/presence/ada") { $0 != .null }
                #expect(presence?["online"] == .bool(false))
                let seen = try #require(presence?["seen"]?.intValue)
                #expect(seen >= before - 1 && seen < before + 5000)
                let expectedStatus = try json(#"{"ada":"offline","count":1}"#)
                let status = try Self.eventually(observer, "/status") { $0 == expectedStatus }
                #expect(status == expectedStatus)
                #expect(try observer.call("g", #"{"p":"/cancelled","q":{}}"#)["d"] == .null)
            }
        }
    }

    @Test func reconnectWithLastSessionClosesTheOldOneAndRunsItsOnDisconnects() async throws {
        try await TestNode.with { node in
            try await onDedicatedThread {
                let old = try WireTestClient(port: node.port)
                _ = try old.call("o", #"{"p":"/left","d":"gone"}"#)
                let fresh = try WireTestClient(port: node.port, target: "/.ws?v=5&ns=wiretest&ls=\(old.sessionID)")
                #expect(fresh.sessionID != old.sessionID)
                let close = try old.socket.readClose()
                #expect(close.code == 1000 && !close.reason.isEmpty)
                #expect(try fresh.call("g", #"{"p":"/left","q":{}}"#)["d"] == .string("gone"))
            }
        }
    }

    @Test func splitMessagesWorkInBothDirections() async throws {
        try await TestNode.with { node in
            try await onDedicatedThread {
                let client = try WireTestClient(port: node.port)
                let big = String(repeating: "é€😀x", count: 8000)
                let message = #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/big","d":"\#(big)"}}}"#
                let characters = Array(message)
                let parts = stride(from: 0, to: characters.count, by: 5_000).map {
                    String(characters[$0..<min($0 + 5_000, characters.count)])
                }
                #expect(parts.joined() == message)
                try client.socket.sendText("\(parts.count)")
                for part in parts { try client.socket.sendText(part) }
                #expect(try client.response(to: 1)["s"] == .string("ok"))
                _ = try client.send("q", #"{"p":"/big","h":""}"#)
                let count = try client.socket.readText()
                let frames = try #require(Int(count))
                #expect(frames >= 5)
                var text = ""
                for _ in 0..<frames {
                    let frame = try client.socket.readText()
                    #expect(frame.utf8.count <= 16384)
                    text += frame
                }
                #expect(try json(text)["d"]?["b"]?["d"] == .string(big))
            }
        }
    }

    @Test func malformedInputClosesOnlyThatClientAndWritesNothing() async throws {
        try await TestNode.with { node in
            try await onDedicatedThread {
                let healthy = try WireTestClient(port: node.port)
                for bad in ["{not json", #"{"t":"d","d":{"a":"p","b":{"p":"/evil","d":1}}}"#, #"["x"]"#] {
                    let client = try WireTestClient(port: node.port)
                    try client.socket.sendText(bad)
                    let close = try client.socket.readClose()
                    #expect(!close.reason.isEmpty, "\(bad)")
                }
                let binary = try WireTestClient(port: node.port)
                try binary.socket.send(WebSocketTestClient.frame(opcode: 0x2, payload: [1, 2, 3]))
                #expect(try !binary.socket.readClose().reason.isEmpty)
                let counted = try WireTestClient(port: node.port)
                try counted.socket.sendText("99999")
                #expect(try !counted.socket.readClose().reason.isEmpty)
                #expect(try healthy.call("g", #"{"p":"/evil","q":{}}"#)["d"] == .null)
                #expect(try healthy.call("p", #"{"p":"/fine","d":1}"#)["s"] == .string("ok"))
            }
        }
    }

    @Test func oversizedMessagesAreRefusedWithAReason() async throws {
        try await TestNode.with(configure: { $0.maximumWireMessageBytes = 4096 }) { node in
            try await onDedicatedThread {
                let client = try WireTestClient(port: node.port)
                try client.socket.sendText("2")
                try client.socket.sendText(String(repeating: "x", count: 3000))
                try client.socket.sendText(String(repeating: "x", count: 3000))
                #expect(try !client.socket.readClose().reason.isEmpty)
                let other = try WireTestClient(port: node.port)
                #expect(try other.call("s", "{}")["s"] == .string("ok"))
            }
        }
    }

    @Test func aBacklogOfUnprocessedRequestsPastTheBoundDisconnectsOnlyThatClient() async throws {
        try await TestNode.with(configure: { $0.maximumWireQueuedBytes = 2048 }) { node in
            try await onDedicatedThread {
                let client = try WireTestClient(port: node.port)
                // A write arriving while the session has nothing queued is taken at once (it is never a backlog), so
                // the backlog is built from reads sent in one segment, which the session's task answers one at a
                // time: twenty 600-byte reads pass the 2 KB bound long before it can catch up, and the write behind
                // them is queued too.
                let key = String(repeating: "k", count: 540)
                var burst: [UInt8] = []
                for request in 1...20 {
                    let read = #"{"t":"d","d":{"r":\#(request),"a":"g","b":{"p":"/flood/\#(key)","q":{}}}}"#
                    burst += WebSocketTestClient.frame(opcode: 0x1, payload: Array(read.utf8))
                }
                let value = String(repeating: "z", count: 3000)
                let write = #"{"t":"d","d":{"r":21,"a":"p","b":{"p":"/flood","d":"\#(value)"}}}"#
                burst += WebSocketTestClient.frame(opcode: 0x1, payload: Array(write.utf8))
                try client.socket.send(burst)
                #expect(try client.socket.readClose().reason.contains("unprocessed"))
                let other = try WireTestClient(port: node.port)
                #expect(try other.call("g", #"{"p":"/flood","q":{}}"#)["d"] == .null)
            }
        }
    }

    @Test func aClientThatStopsReadingIsCutOff() async throws {
        try await TestNode.with(configure: { $0.outboundBufferLimit = 256 * 1024 }) { node in
            try await onDedicatedThread {
                let slow = try WireTestClient(port: node.port, receiveBufferBytes: 4096)
                _ = try slow.call("q", #"{"p":"/feed","h":""}"#)
                let writer = try WireTestClient(port: node.port)
                // 400 × 32 KB is more than the kernel's socket buffers can absorb, so the node's own queue for the slow
                // client passes its limit whatever the buffer sizes are.
                let chunk = String(repeating: "y", count: 32_000)
                for index in 0..<400 {
                    _ = try writer.call("p", #"{"p":"/feed/i\#(index)","d":"\#(chunk)"}"#)
                }
                var received = 0
                do {
                    while true {
                        _ = try slow.readMessage()
                        received += 1
                    }
                } catch {}
                #expect(received < 400)
                #expect(try writer.call("g", #"{"p":"/feed/i399","q":{}}"#)["d"] == .string(chunk))
            }
        }
    }
}
