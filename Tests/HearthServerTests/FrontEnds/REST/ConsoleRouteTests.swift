import HearthNode
import HearthServer
import HearthTestKit
import Testing

/// The node serves the console at `/.console` beside the data, and the one-level reads and streams it browses with.
@Suite struct ConsoleRouteTests {
    /// The page is served by every node, to anyone, and never shadows or touches data.
    @Test func theConsoleIsServedBesideTheData() async throws {
        try await TestNode.with(configure: { $0.databaseSecrets = ["console-secret"] }) { node in
            let page = try await node.request("GET", "/.console")
            #expect(page.status == 200)
            #expect(page.header("Content-Type") == "text/html; charset=utf-8")
            #expect(page.header("Content-Security-Policy")?.hasPrefix("default-src 'self'") == true)
            #expect(try await node.request("GET", "/.console/nope.js").status == 404)
            #expect(try await node.request("PUT", "/.console", body: "1").status == 405)
            _ = try await node.request("PUT", "/console.json?auth=console-secret", body: #""data""#)
            #expect(try await node.request("GET", "/console.json?auth=console-secret").text == #""data""#)
        }
    }

    /// `shallow=values` gives one level: leaf children with their values, a child with children as `{}`.
    @Test func oneLevelReadsTellLeavesFromBranches() async throws {
        try await TestNode.with { node in
            _ = try await node.request("PUT", "/shop.json", body: #"{"open":true,"name":"x","items":{"a":{"b":1}}}"#)
            let level = try await node.request("GET", "/shop.json?shallow=values").text
            #expect(level == #"{"items":{},"name":"x","open":true}"#)
            let page = try await node.request("GET", #"/shop.json?shallow=values&orderBy="$key"&limitToFirst=1"#)
            #expect(page.text == #"{"items":{}}"#)
            #expect(try await node.request("GET", "/shop/name.json?shallow=values").text == #""x""#)
            #expect(try await node.request("GET", "/shop.json?shallow=maybe").status == 400)
        }
    }

    /// A `shallow=values` stream sends its page of one level whole, again only when that level changes.
    @Test func oneLevelStreamsSendTheLevelWhenItChanges() async throws {
        try await TestNode.with { node in
            _ = try await node.request("PUT", "/big.json", body: #"{"a":1,"b":{"deep":1},"c":3}"#)
            let port = node.port
            let events = try await onDedicatedThread { () -> [String] in
                let stream = try HTTPTestClient(port: port)
                _ = try stream.request(
                    "GET", "/big.json?shallow=values&orderBy=%22$key%22&limitToFirst=2",
                    headers: [("Accept", "text/event-stream")])
                var data = [try stream.readEvent().data]
                let writer = try HTTPTestClient(port: port)
                _ = try writer.request("PUT", "/big/b/deep.json", body: "2")
                _ = try writer.request("PUT", "/big/c.json", body: "4")
                _ = try writer.request("PUT", "/big/a.json", body: "5")
                data.append(try stream.readEvent().data)
                return data
            }
            #expect(events == [#"{"path":"/","data":{"a":1,"b":{}}}"#, #"{"path":"/","data":{"a":5,"b":{}}}"#])
        }
    }

    /// A `shallow=values` stream without a page (or a page past the limit) is refused: it would serialise the whole
    /// level again on every change under it. A one-off read needs none.
    @Test func oneLevelStreamsNeedAPage() async throws {
        try await TestNode.with { node in
            _ = try await node.request("PUT", "/big.json", body: #"{"a":1,"b":2}"#)
            let stream = [("Accept", "text/event-stream")]
            let unpaged = try await node.request("GET", "/big.json?shallow=values", headers: stream)
            #expect(unpaged.status == 400 && unpaged.text.contains("limitToFirst"), "\(unpaged.text)")
            let tooLarge = try await node.request(
                "GET", "/big.json?shallow=values&orderBy=%22$key%22&limitToLast=10001", headers: stream)
            #expect(tooLarge.status == 400, "\(tooLarge.text)")
            #expect(try await node.request("GET", "/big.json?shallow=values").status == 200)
        }
    }
}
