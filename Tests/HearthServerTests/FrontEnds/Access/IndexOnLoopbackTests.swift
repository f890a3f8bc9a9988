import HearthCore
import HearthTestKit
import Testing

@testable import HearthServer

/// `.indexOn` over REST and the realtime protocol: declared indexes are kept and answer as a scan would through
/// every kind of write, and an undeclared one draws Firebase's `no_index` warning.
@Suite struct IndexOnLoopbackTests {
    static let rules = #"""
        {"rules": {".read": true, ".write": true,
          "scores": {".indexOn": ["score", ".value"]},
          "rooms": {"$room": {"messages": {".indexOn": "at"}}}}}
        """#

    static func withIndexes<T>(_ body: (TestNode) async throws -> T) async throws -> T {
        try await TestNode.with { node in
            let put = try await node.request(
                "PUT", "/.settings/rules.json", body: Self.rules, headers: [("Authorization", "Bearer owner")])
            #expect(put.status == 200)
            return try await body(node)
        }
    }

    @Test func declaredIndexesAnswerAsAScanThroughWrites() async throws {
        try await Self.withIndexes { node in
            var scores: [String: Int] = [:]
            for index in 0..<40 { scores["p\(index)"] = (index * 37) % 23 }
            let body = "{" + scores.map { #""\#($0.key)":{"score":\#($0.value)}"# }.joined(separator: ",") + "}"
            _ = try await node.request("PUT", "/scores.json", body: body)
            let top = "/scores.json?orderBy=%22score%22&limitToLast=3"
            let first = try await node.request("GET", top)
            #expect(try await Self.indexCount(node) == 1, "the first indexed query builds the index")
            #expect(first.text == Self.expectedTop(scores))
            // Every kind of write below the location moves children in the kept order.
            _ = try await node.request("PUT", "/scores/p1/score.json", body: "100")
            scores["p1"] = 100
            _ = try await node.request("PATCH", "/scores.json", body: #"{"p2/score":99,"p3":null,"p40":{"score":98}}"#)
            scores["p2"] = 99
            scores["p3"] = nil
            scores["p40"] = 98
            _ = try await node.request("PUT", "/scores/p4/score.json", body: #"{".sv":{"increment":1000}}"#)
            scores["p4", default: 0] += 1000
            #expect(try await node.request("GET", top).text == Self.expectedTop(scores))
            #expect(try await Self.indexCount(node) == 1)
            #expect(try await Self.metric("hearth_query_index_builds_total", node) == 1, "kept up, not rebuilt")
            let ranged = try await node.request("GET", "/scores.json?orderBy=%22score%22&startAt=20&endAt=99")
            #expect(ranged.text == Self.expected(scores.filter { (20...99).contains($0.value) }))
        }
    }

    @Test func wildcardLocationsAndUndeclaredIndexes() async throws {
        try await Self.withIndexes { node in
            _ = try await node.request(
                "PUT", "/rooms/r1/messages.json", body: #"{"a":{"at":3},"b":{"at":1},"c":{"at":2}}"#)
            let first = try await node.request("GET", "/rooms/r1/messages.json?orderBy=%22at%22&limitToFirst=2")
            #expect(first.text == #"{"b":{"at":1},"c":{"at":2}}"#)
            #expect(try await Self.indexCount(node) == 1)
            let port = node.port
            let answers = try await onDedicatedThread { () -> [JSONValue] in
                let client = try WireTestClient(port: port, target: "/.ws?v=5&ns=default")
                return [
                    try client.call("q", #"{"p":"/rooms/r1/messages","h":"","t":1,"q":{"i":"at","l":2,"vf":"l"}}"#),
                    try client.call("q", #"{"p":"/rooms/r1/messages","h":"","t":2,"q":{"i":"text","l":2,"vf":"l"}}"#),
                ]
            }
            #expect(answers[0] == (try json(#"{"s":"ok","d":{}}"#)))
            #expect(answers[1] == (try json(#"{"s":"ok","d":{"w":["no_index"]}}"#)))
        }
    }

    @Test func aRulesChangeDropsTheIndexesOfItsNamespace() async throws {
        try await Self.withIndexes { node in
            _ = try await node.request("PUT", "/scores.json", body: #"{"a":{"score":1}}"#)
            _ = try await node.request("GET", "/scores.json?orderBy=%22score%22&limitToLast=1")
            #expect(try await Self.indexCount(node) == 1)
            _ = try await node.request(
                "PUT", "/.settings/rules.json", body: #"{"rules": {".read": true, ".write": true}}"#,
                headers: [("Authorization", "Bearer owner")])
            #expect(try await eventually { try await Self.indexCount(node) == 0 })
            #expect(
                try await node.request("GET", "/scores.json?orderBy=%22score%22&limitToLast=1").text
                    == #"{"a":{"score":1}}"#, "an undeclared index still answers, by scanning")
            #expect(try await Self.indexCount(node) == 0)
        }
    }

    /// `hearth_query_indexes` from the node's metrics.
    private static func indexCount(_ node: TestNode) async throws -> Int {
        try await Self.metric("hearth_query_indexes", node)
    }

    private static func metric(_ name: String, _ node: TestNode) async throws -> Int {
        let metrics = try await node.request("GET", "/.metrics").text
        let line = metrics.split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") }.map { Int($0) } ?? -1
    }

    private static func expectedTop(_ scores: [String: Int]) -> String {
        let top = scores.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.suffix(3)
        return Self.expected(Dictionary(uniqueKeysWithValues: top.map { ($0.key, $0.value) }))
    }

    /// The REST body of `scores` (children in key order, as Firebase writes objects).
    private static func expected(_ scores: [String: Int]) -> String {
        let keys = scores.keys.map { Key(unchecked: $0) }.sorted()
        return "{" + keys.map { #""\#($0.string)":{"score":\#(scores[$0.string] ?? 0)}"# }.joined(separator: ",") + "}"
    }
}
