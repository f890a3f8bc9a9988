import HearthCore
import HearthTestKit
import Testing

@testable import HearthServer

/// An increment whose sum no number can hold fails its whole write and changes nothing, over REST and the realtime
/// protocol, for one location and for a multi-path update alike.
@Suite struct IncrementOverflowLoopbackTests {
    static let big = #"{".sv":{"increment":1e308}}"#

    /// `PUT` of a 1e308 increment twice: the second is refused (400, Firebase's error body) and the value stays.
    @Test func aRESTIncrementThatOverflowsIsRefusedAndChangesNothing() async throws {
        try await TestNode.with { node in
            #expect(try await node.request("PUT", "/n.json", body: Self.big).status == 200)
            let refused = try await node.request("PUT", "/n.json", body: Self.big)
            #expect(refused.status == 400 && refused.text.contains("\"error\""), "\(refused.text)")
            let stored = try await node.request("GET", "/n.json").text
            #expect(Double(stored) == 1e308, "\(stored)")
            #expect(try await node.request("PUT", "/m.json", body: "1").status == 200)
            let update = try await node.request(
                "PATCH", "/.json", body: #"{"m":{".sv":{"increment":1}},"n":\#(Self.big)}"#)
            #expect(update.status == 400, "\(update.text)")
            #expect(try await node.request("GET", "/m.json").text == "1", "no part of the update was applied")
            #expect(Double(try await node.request("GET", "/n.json").text) == 1e308)
        }
    }

    /// The same below the spine, where one shard's leader decides a single-shard write and every shard's part of
    /// a multi-shard one is checked before any is committed.
    @Test func anIncrementBelowTheSpineThatOverflowsChangesNothing() async throws {
        try await TestNode.with { node in
            let seeded = try await node.request("PUT", "/deep.json", body: #"{"a":1e308,"b":1,"c":1,"d":1}"#)
            try #require(seeded.status == 200)
            #expect(try await node.request("PUT", "/deep/a.json", body: Self.big).status == 400)
            let update = try await node.request(
                "PATCH", "/deep.json",
                body: #"{"b":{".sv":{"increment":1}},"c":{".sv":{"increment":1}},"d":1,"a":\#(Self.big)}"#)
            #expect(update.status == 400, "\(update.text)")
            #expect(Double(try await node.request("GET", "/deep/a.json").text) == 1e308)
            for key in ["b", "c", "d"] {
                #expect(try await node.request("GET", "/deep/\(key).json").text == "1", "\(key) was changed")
            }
        }
    }

    /// Realtime `p` and `m` with an overflowing increment are answered with a non-ok status and change nothing.
    @Test func aRealtimeIncrementThatOverflowsIsRefusedAndChangesNothing() async throws {
        try await TestNode.with { node in
            let port = node.port
            try await onDedicatedThread {
                let client = try WireTestClient(port: port)
                #expect(try client.call("p", #"{"p":"/n","d":1e308}"#)["s"]?.stringValue == "ok")
                #expect(try client.call("p", #"{"p":"/m","d":1}"#)["s"]?.stringValue == "ok")
                let put = try client.call("p", #"{"p":"/n","d":\#(Self.big)}"#)
                #expect(put["s"]?.stringValue != "ok" && put["s"] != nil, "\(put)")
                let merge = try client.call("m", #"{"p":"/","d":{"m":{".sv":{"increment":1}},"n":\#(Self.big)}}"#)
                #expect(merge["s"]?.stringValue != "ok" && merge["s"] != nil, "\(merge)")
            }
            #expect(Double(try await node.request("GET", "/n.json?ns=wiretest").text) == 1e308)
            #expect(try await node.request("GET", "/m.json?ns=wiretest").text == "1")
        }
    }
}
