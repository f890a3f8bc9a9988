import HearthCore
import HearthTestKit
import Testing

/// Compare-and-sets over real sockets take turns: a caller answered `412` (REST) or `datastale` (a realtime put with
/// a hash) keeps the location until its retry comes back, so a newcomer that arrives first with the same, current
/// value waits, and loses to the retry (the retry comes well within the first retry window, 30 ms).
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

    @Test func aRealtimeRetryAfterDatastaleGoesBeforeANewcomerThatArrivedFirst() async throws {
        try await TestNode.with { node in
            var outcomes: [String] = []
            for attempt in 0..<5 {
                let path = "/counter\(attempt)"
                let port = node.port
                let (retry, newcomer, final) = try await onDedicatedThread {
                    let loser = try WireTestClient(port: port)
                    _ = try loser.call("p", #"{"p":"\#(path)","d":1}"#)
                    let hash = Node(.int(1)).hash
                    #expect(try loser.call("p", #"{"p":"\#(path)","d":2,"h":"stale"}"#)["s"] == .string("datastale"))
                    let other = try WireTestClient(port: port)
                    let newcomerID = try other.send("p", #"{"p":"\#(path)","d":20,"h":"\#(hash)"}"#)
                    let retry = try loser.call("p", #"{"p":"\#(path)","d":2,"h":"\#(hash)"}"#)
                    let newcomer = try other.response(to: newcomerID)
                    return (retry, newcomer, try loser.call("g", #"{"p":"\#(path)"}"#))
                }
                outcomes.append("retry \(retry), newcomer \(newcomer), final \(final)")
                if retry["s"] == .string("ok") && newcomer["s"] == .string("datastale") && final["d"] == .int(2) {
                    return
                }
            }
            Issue.record("the realtime retry never went before the newcomer: \(outcomes)")
        }
    }
}
