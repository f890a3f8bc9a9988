import Foundation
import HearthCore
import HearthTestKit
import Testing

@testable import HearthNode
@testable import HearthServer

/// Writes that name their origin (`"o"`), sent again on new connections and to a node that restarted — from its
/// log, then from a snapshot — are answered `ok` and applied once; unnamed writes apply every time, as Firebase's.
@Suite(.serialized) struct WireWriteOriginTests {
    private static let put = #"{"p":"/posts/p1/stars","d":{".sv":{"increment":1}},"o":{"c":"app","s":1,"a":1}}"#
    private static let merge =
        #"{"p":"/","d":{"posts/p2/stars":{".sv":{"increment":1}},"user-posts/ada/p2/stars":{".sv":{"increment":1}}},"#
        + #""o":{"c":"app","s":2,"a":1}}"#
    private static let unnamed = #"{"p":"/unnamed","d":{".sv":{"increment":1}}}"#

    @Test(.timeLimit(.minutes(2))) func namedWritesApplyOnceAcrossReconnectsAndRestarts() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for round in 1...3 {
            try await TestNode.with(
                dataDirectory: directory.path, configure: { $0.snapshotEveryRecords = round == 2 ? 1 : 100_000 }
            ) { node in
                let port = node.port
                let answers = try await onDedicatedThread {
                    let client = try WireTestClient(port: port)
                    return try [("p", Self.put), ("m", Self.merge), ("p", Self.put), ("p", Self.unnamed)].map {
                        try client.call($0.0, $0.1)["s"]?.stringValue
                    }
                }
                #expect(answers == ["ok", "ok", "ok", "ok"], "round \(round)")
                let body = try await node.request("GET", "/.json?ns=wiretest").body
                let expected =
                    #"{"posts":{"p1":{"stars":1},"p2":{"stars":1}},"unnamed":\#(round),"#
                    + #""user-posts":{"ada":{"p2":{"stars":1}}}}"#
                #expect(try json(String(decoding: body, as: UTF8.self)) == json(expected), "round \(round)")
                if round == 2 {
                    let written = await eventually(seconds: 20) {
                        let names =
                            (try? FileManager.default.contentsOfDirectory(atPath: directory.child("snapshots"))) ?? []
                        return names.contains { $0.hasSuffix(".snap") }
                    }
                    #expect(written, "no snapshot was written for the last round to restart from")
                }
            }
        }
    }

    /// A named write sent again after it was applied is answered `ok` even when the rules, reading what it wrote,
    /// now refuse it (a create-only rule); another write there is refused.
    @Test func aWriteSentAgainIsNotRefusedByRulesItsFirstSendSatisfied() async throws {
        try await TestNode.with { node in
            let rules = #"{"rules": {".read": true, "messages": {"$id": {".write": "!data.exists()"}}}}"#
            let stored = try await node.request(
                "PUT", "/.settings/rules.json?ns=wiretest", body: rules, headers: [("Authorization", "Bearer owner")])
            #expect(stored.status == 200)
            let port = node.port
            let answers = try await onDedicatedThread {
                let first = #"{"p":"/messages/m1","d":"hi","o":{"c":"app","s":1,"a":1}}"#
                let other = #"{"p":"/messages/m1","d":"again","o":{"c":"app","s":2,"a":1}}"#
                let unnamed = #"{"p":"/messages/m1","d":"again"}"#
                return try [first, first, other, unnamed].map {
                    try WireTestClient(port: port).call("p", $0)["s"]?.stringValue
                }
            }
            #expect(answers == ["ok", "ok", "permission_denied", "permission_denied"])
            let body = try await node.request("GET", "/messages/m1.json?ns=wiretest").body
            #expect(String(decoding: body, as: UTF8.self) == #""hi""#)
        }
    }

    /// A named compare-and-set on a spine path (read under locks in every shard before it prepares) sent again after
    /// it applied meets its own value: it is answered `ok`, not `datastale`; another with the same old hash is stale.
    @Test func aSpineCompareAndSetSentAgainIsAnsweredOk() async throws {
        try await TestNode.with { node in
            let port = node.port
            let hash = Node(.int(1)).hash
            let answers = try await onDedicatedThread {
                let client = try WireTestClient(port: port)
                let named = #"{"p":"/counter","d":2,"h":"\#(hash)","o":{"c":"app","s":1,"a":1}}"#
                let other = #"{"p":"/counter","d":3,"h":"\#(hash)","o":{"c":"app","s":2,"a":1}}"#
                return try [#"{"p":"/counter","d":1}"#, named, named, other].map {
                    try client.call("p", $0)["s"]?.stringValue
                }
            }
            #expect(answers == ["ok", "ok", "ok", "datastale"])
            let body = try await node.request("GET", "/counter.json?ns=wiretest").body
            #expect(String(decoding: body, as: UTF8.self) == "2")
        }
    }

    /// A merge that names a malformed origin is refused and changes nothing.
    @Test func aMalformedOriginIsRefused() async throws {
        try await TestNode.with { node in
            let port = node.port
            let answer = try await onDedicatedThread {
                try WireTestClient(port: port).call("m", #"{"p":"/","d":{"a":1},"o":{"c":"a b","s":1,"a":0}}"#)
            }
            #expect(answer["s"]?.stringValue == "invalid_request")
            #expect(String(decoding: try await node.request("GET", "/.json?ns=wiretest").body, as: UTF8.self) == "null")
        }
    }
}
