import HearthTestKit
import Testing

/// REST compare-and-sets over real sockets take turns: a caller answered `412` keeps the location until its retry
/// comes back, so a newcomer that arrives first with the same, current ETag waits, and loses to the retry (the retry
/// comes well within the first retry window, 30 ms).
@Suite struct ConditionalWriteTurnsLoopbackTests {
    @Test func aRetryAfterA412GoesBeforeANewcomerThatArrivedFirst() async throws {
        try await TestNode.with { node in
            #expect(try await node.request("PUT", "/counter.json", body: "1").status == 200)
            let port = node.port
            let (retry, newcomer, final) = try await onDedicatedThread {
                let loser = try HTTPTestClient(port: port)
                let refused = try loser.request("PUT", "/counter.json", body: "2", headers: [("if-match", "stale")])
                let etag = refused.header("ETag") ?? ""
                let other = try HTTPTestClient(port: port)
                try other.send(
                    HTTPTestClient.requestBytes(
                        "PUT", "/counter.json", body: Array("20".utf8), headers: [("if-match", etag)]))
                let retry = try loser.request("PUT", "/counter.json", body: "2", headers: [("if-match", etag)])
                let newcomer = try other.readResponse()
                return (retry, newcomer, try loser.request("GET", "/counter.json"))
            }
            #expect(retry.status == 200, "the retry committed")
            #expect(newcomer.status == 412, "the newcomer waited for the retry, and lost to it")
            #expect(newcomer.text == "2")
            #expect(final.text == "2")
        }
    }
}
