import HearthTestKit
import Testing

/// Writes below a leaf standing on the spine (a whole namespace set to a number, then a child written): every shard
/// keeps a copy of spine leaves, so these run over every shard and must clear the leaf everywhere.
@Suite struct SpineLeafLoopbackTests {
    @Test func aSpineWriteBelowARootLeafReplacesIt() async throws {
        try await TestNode.with { node in
            let response1 = try await node.request("PUT", "/.json", body: "3")
            #expect(response1.status == 200)
            let response2 = try await node.request("PUT", "/posts.json", body: #"{"p1":{"x":1}}"#)
            #expect(response2.status == 200)
            let response3 = try await node.request("PUT", "/posts/p2/x.json", body: "2")
            #expect(response3.status == 200)
            let response4 = try await node.request("GET", "/.json")
            #expect(response4.text == #"{"posts":{"p1":{"x":1},"p2":{"x":2}}}"#)
        }
    }

    @Test func aDeepWriteBelowASpineLeafReplacesIt() async throws {
        try await TestNode.with { node in
            let response5 = try await node.request("PUT", "/config.json", body: #""off""#)
            #expect(response5.status == 200)
            let response6 = try await node.request("PATCH", "/.json", body: #"{"config/a/b":1,"config/c/d":2}"#)
            #expect(response6.status == 200)
            let response7 = try await node.request("GET", "/config.json")
            #expect(response7.text == #"{"a":{"b":1},"c":{"d":2}}"#)
            let response8 = try await node.request("PUT", "/config/e/f.json", body: "3")
            #expect(response8.status == 200)
            let response9 = try await node.request("GET", "/config.json")
            #expect(response9.text == #"{"a":{"b":1},"c":{"d":2},"e":{"f":3}}"#)
        }
    }
}
