import HearthCore
import HearthTestKit
import Testing

@testable import HearthServer

/// One connection may send many writes without waiting; answers still come in request order.
@Suite struct WirePipeliningTests {
    @Test func pipelinedPutsAreAcknowledgedInOrderAndAGetAfterThemSeesThemAll() async throws {
        try await TestNode.with { node in
            try await onDedicatedThread {
                let client = try WireTestClient(port: node.port)
                var ids: [Int64] = []
                for index in 0..<200 {
                    ids.append(try client.send("p", #"{"p":"/pipe/c\#(index % 7)","d":\#(index)}"#))
                }
                ids.append(try client.send("p", #"{"p":"/pipe/bad.key","d":1}"#))
                let getID = try client.send("g", #"{"p":"/pipe","q":{}}"#)
                var answered: [Int64] = []
                var lastBody = JSONValue.null
                while answered.count < ids.count + 1 {
                    let message = try client.readMessage()
                    guard let data = message["d"], let id = data["r"]?.intValue else { continue }
                    answered.append(id)
                    lastBody = data["b"] ?? .null
                }
                #expect(answered == ids + [getID])
                #expect(lastBody["s"] == .string("ok"))
                #expect(lastBody["d"]?["c6"] == .int(195))
                #expect(lastBody["d"]?["c0"] == .int(196))
            }
        }
    }

    @Test func aStaleCompareAndSetInAPipelineFailsAloneAndLaterWritesStillApply() async throws {
        try await TestNode.with { node in
            try await onDedicatedThread {
                let client = try WireTestClient(port: node.port)
                _ = try client.call("p", #"{"p":"/cas","d":1}"#)
                let stale = try client.send("p", #"{"p":"/cas","d":2,"h":"not-the-hash"}"#)
                let after = try client.send("p", #"{"p":"/cas","d":3}"#)
                #expect(try client.response(to: stale)["s"] == .string("datastale"))
                #expect(try client.response(to: after)["s"] == .string("ok"))
                #expect(try client.call("g", #"{"p":"/cas","q":{}}"#)["d"] == .int(3))
            }
        }
    }
}
