import HearthTestKit
import Testing

/// REST compare-and-sets over real sockets take turns: a caller answered `412` keeps the location until its retry
/// comes back, so a newcomer that arrives first with the same, current ETag waits, and loses to the retry (the retry
/// comes well within the first retry window, 30 ms).
@Suite struct ConditionalWriteTurnsLoopbackTests {
    @Test func aRetryAfterA412GoesBeforeANewcomerThatArrivedFirst() async throws {
        try await TestNode.with { node in
            // The first retry window is 30 ms; a machine stalled longer than that (a loaded CI runner) legitimately
            // lets the newcomer go first, so the scenario gets a few fresh locations to show the turn.
            var outcomes: [String] = []
            for attempt in 0..<5 {
                let path = "/counter\(attempt).json"
                #expect(try await node.request("PUT", path, body: "1").status == 200)
                let port = node.port
                let (retry, newcomer, final) = try await onDedicatedThread {
                    let loser = try HTTPTestClient(port: port)
                    let refused = try loser.request("PUT", path, body: "2", headers: [("if-match", "stale")])
                    let etag = refused.header("ETag") ?? ""
                    let other = try HTTPTestClient(port: port)
                    try other.send(
                        HTTPTestClient.requestBytes("PUT", path, body: Array("20".utf8), headers: [("if-match", etag)]))
                    let retry = try loser.request("PUT", path, body: "2", headers: [("if-match", etag)])
                    let newcomer = try other.readResponse()
                    return (retry, newcomer, try loser.request("GET", path))
                }
                outcomes.append("retry \(retry.status), newcomer \(newcomer.status), final \(final.text)")
                if retry.status == 200 && newcomer.status == 412 && newcomer.text == "2" && final.text == "2" {
                    return
                }
            }
            Issue.record("the retry never went before the newcomer: \(outcomes)")
        }
    }
}
