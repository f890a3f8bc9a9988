import HearthTestKit
import Testing

/// The REST API over real sockets against an in-process node.
@Suite struct RESTLoopbackTests {
    @Test func putThenGetReturnsTheValue() async throws {
        try await TestNode.with { node in
            let put = try await node.request("PUT", "/users/ada.json", body: #"{"name":"Ada","age":36}"#)
            #expect(put.status == 200)
            #expect(put.text == #"{"age":36,"name":"Ada"}"#)
            let get = try await node.request("GET", "/users/ada/name.json")
            #expect(get.text == #""Ada""#)
            #expect(try await node.request("GET", "/users/nobody.json").text == "null")
        }
    }

    @Test func postReturnsATimeOrderedPushID() async throws {
        try await TestNode.with { node in
            var names: [String] = []
            for index in 0..<5 {
                let post = try await node.request("POST", "/list.json", body: "\(index)")
                #expect(post.status == 200)
                let name = String(post.text.dropFirst(9).dropLast(2))
                #expect(name.count == 20)
                names.append(name)
            }
            #expect(names == names.sorted())
            #expect(try await node.request("GET", "/list.json").text.contains(names[4]))
        }
    }

    @Test func multiPathPatchAcrossShardsIsAtomicAndOverlapsAreRejected() async throws {
        try await TestNode.with { node in
            let patch = try await node.request(
                "PATCH", "/.json", body: #"{"posts/p1/title":"x","user-posts/u1/p1/title":"x"}"#)
            #expect(patch.status == 200)
            #expect(
                try await node.request("GET", "/.json").text
                    == #"{"posts":{"p1":{"title":"x"}},"user-posts":{"u1":{"p1":{"title":"x"}}}}"#)
            let overlap = try await node.request("PATCH", "/.json", body: #"{"posts":{"a":1},"posts/p1":2}"#)
            #expect(overlap.status == 400)
            #expect(overlap.text.hasPrefix(#"{"error":"#))
            #expect(try await node.request("GET", "/posts.json").text == #"{"p1":{"title":"x"}}"#)
        }
    }

    /// A PATCH answers its members in sorted order as applied: server values resolved, nulls dropped, keys and
    /// strings escaped, priorities as given.
    @Test func patchAnswersItsMembersAsApplied() async throws {
        try await TestNode.with { node in
            _ = try await node.request("PUT", "/hq/c.json", body: "5")
            let patch = try await node.request(
                "PATCH", "/hq.json",
                body:
                    #"{"c":{".sv":{"increment":2}},"q\"x":1,"é":"v\n","n":{"b":[1,2],"a":null},"d/.priority":4.5,"1":true}"#
            )
            #expect(patch.status == 200)
            #expect(patch.text == #"{"1":true,"c":7,"d/.priority":4.5,"n":{"b":[1,2]},"q\"x":1,"é":"v\n"}"#)
        }
    }

    /// A PATCH across shards whose members lie at different depths answers each member's own value under its own
    /// key (the shards hand a transaction's mutations back in their applying order, not the keys' sorted order).
    @Test func aPatchAcrossShardsAnswersEachMemberUnderItsOwnKey() async throws {
        try await TestNode.with { node in
            _ = try await node.request("PUT", "/user-posts/u1/p1/stars.json", body: "1")
            let patch = try await node.request(
                "PATCH", "/.json",
                body:
                    #"{"posts/p1/title":"t","user-posts/u1/p1/stars":{".sv":{"increment":1}},"zz":"z","posts/p1/a/b/c/d":4}"#
            )
            #expect(patch.status == 200)
            #expect(
                patch.text == #"{"posts/p1/a/b/c/d":4,"posts/p1/title":"t","user-posts/u1/p1/stars":2,"zz":"z"}"#)
        }
    }

    @Test func patchWithNullDeletes() async throws {
        try await TestNode.with { node in
            _ = try await node.request("PUT", "/a.json", body: #"{"b":1,"c":2}"#)
            _ = try await node.request("PATCH", "/a.json", body: #"{"b":null}"#)
            #expect(try await node.request("GET", "/a.json").text == #"{"c":2}"#)
        }
    }

    @Test func serverValuesResolveAtApplyTime() async throws {
        try await TestNode.with { node in
            _ = try await node.request("PUT", "/c.json", body: "5")
            let incremented = try await node.request("PUT", "/c.json", body: #"{".sv":{"increment":2}}"#)
            #expect(incremented.text == "7")
            _ = try await node.request("PUT", "/s.json", body: #""text""#)
            #expect(try await node.request("PUT", "/s.json", body: #"{".sv":{"increment":3}}"#).text == "3")
            let stamped = try await node.request("PUT", "/t.json", body: #"{".sv":"timestamp"}"#)
            #expect((Int64(stamped.text) ?? 0) > 1_700_000_000_000)
        }
    }

    @Test func concurrentIncrementsOnOneCounterLoseNothing() async throws {
        try await TestNode.with { node in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        for _ in 0..<25 {
                            _ = try await node.request("PUT", "/posts/p1/stars.json", body: #"{".sv":{"increment":1}}"#)
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await node.request("GET", "/posts/p1/stars.json").text == "200")
        }
    }

    @Test func etagsAndConditionalPuts() async throws {
        try await TestNode.with { node in
            let absent = try await node.request("GET", "/x.json", headers: [("X-Firebase-ETag", "true")])
            #expect(absent.header("ETag") == "null_etag")
            let created = try await node.request("PUT", "/x.json", body: "1", headers: [("if-match", "null_etag")])
            #expect(created.status == 200)
            #expect(created.header("ETag") == "YPVfR2bXt/lcDjiQZ8pOkAd3qkQ=")
            let stale = try await node.request("PUT", "/x.json", body: "2", headers: [("if-match", "null_etag")])
            #expect(stale.status == 412)
            #expect(stale.text == "1")
            #expect(stale.header("ETag") == "YPVfR2bXt/lcDjiQZ8pOkAd3qkQ=")
            let unchanged = try await node.request(
                "GET", "/x.json", headers: [("if-none-match", "YPVfR2bXt/lcDjiQZ8pOkAd3qkQ=")])
            #expect(unchanged.status == 304)
        }
    }

    @Test func queriesFilterAndOrder() async throws {
        try await TestNode.with { node in
            _ = try await node.request("PUT", "/s.json", body: #"{"a":{"n":3},"b":{"n":1},"c":{"n":2},"d":{"n":"x"}}"#)
            let top = try await node.request("GET", #"/s.json?orderBy=%22n%22&limitToLast=2"#)
            #expect(top.text == #"{"a":{"n":3},"d":{"n":"x"}}"#)
            let range = try await node.request("GET", #"/s.json?orderBy=%22n%22&startAt=2&endAt=3"#)
            #expect(range.text == #"{"a":{"n":3},"c":{"n":2}}"#)
            let bad = try await node.request("GET", #"/s.json?limitToFirst=1"#)
            #expect(bad.status == 400)
            let shallow = try await node.request("GET", "/s.json?shallow=true")
            #expect(shallow.text == #"{"a":true,"b":true,"c":true,"d":true}"#)
        }
    }

    @Test func badInputIsRejectedAndChangesNothing() async throws {
        try await TestNode.with { node in
            _ = try await node.request("PUT", "/k.json", body: "1")
            let cases: [(String, String, String?)] = [
                ("PUT", "/k.json", "{not json"),
                ("PUT", "/k.json", #"{"a.b":1}"#),
                ("PUT", "/k.json", #"{"a":{".sv":"bogus"}}"#),
                ("PUT", "/k$.json", "2"),
                ("PATCH", "/k.json", "[1,2]"),
                ("BREW", "/k.json", "2"),
                ("GET", "/k.json?orderBy=%22a%22&orderBy=1&equalTo=1&startAt=1", nil),
            ]
            for (method, target, body) in cases {
                let response = try await node.request(method, target, body: body)
                #expect((400..<500).contains(response.status), "\(method) \(target)")
                #expect(response.text.hasPrefix(#"{"error":"#), "\(method) \(target)")
            }
            #expect(try await node.request("GET", "/k.json").text == "1")
        }
    }

    @Test func printSilentAndPrettyAndExport() async throws {
        try await TestNode.with { node in
            let silent = try await node.request("PUT", "/p.json?print=silent", body: #"{".value":1,".priority":2}"#)
            #expect(silent.status == 204)
            #expect(try await node.request("GET", "/p.json?format=export").text == #"{".value":1,".priority":2}"#)
            #expect(try await node.request("GET", "/p.json").text == "1")
            _ = try await node.request("PUT", "/arr.json", body: #"["a","b"]"#)
            #expect(try await node.request("GET", "/arr.json").text == #"["a","b"]"#)
            #expect(try await node.request("GET", "/arr.json?print=pretty").text.contains("\n"))
        }
    }

    @Test func methodOverrideTurnsPostIntoDelete() async throws {
        try await TestNode.with { node in
            _ = try await node.request("PUT", "/gone.json", body: "1")
            let deleted = try await node.request("POST", "/gone.json", headers: [("X-HTTP-Method-Override", "DELETE")])
            #expect(deleted.status == 200)
            #expect(try await node.request("GET", "/gone.json").text == "null")
        }
    }

    @Test func namespacesAreSeparateTrees() async throws {
        try await TestNode.with { node in
            _ = try await node.request("PUT", "/v.json?ns=one", body: "1")
            _ = try await node.request("PUT", "/v.json?ns=two", body: "2")
            #expect(try await node.request("GET", "/v.json?ns=one").text == "1")
            #expect(try await node.request("GET", "/v.json?ns=two").text == "2")
            #expect(try await node.request("GET", "/v.json").text == "null")
        }
    }

    @Test func eventStreamSendsInitialPutThenChanges() async throws {
        try await TestNode.with { node in
            _ = try await node.request("PUT", "/room.json", body: #"{"a":1}"#)
            let port = node.port
            let events = try await onDedicatedThread { () -> [Event] in
                let stream = try HTTPTestClient(port: port)
                let head = try stream.request("GET", "/room.json", headers: [("Accept", "text/event-stream")])
                guard head.status == 200 else { return [] }
                var events = [try stream.readEvent()]
                let writer = try HTTPTestClient(port: port)
                _ = try writer.request("PUT", "/room/b.json", body: "2")
                events.append(try stream.readEvent())
                _ = try writer.request("PATCH", "/room.json", body: #"{"c":3,"d":4}"#)
                events.append(try stream.readEvent())
                _ = try writer.request("PUT", "/.json", body: #"{"room":{"z":0}}"#)
                events.append(try stream.readEvent())
                return events.map { Event(name: $0.event, data: $0.data) }
            }
            #expect(events.map(\.name) == ["put", "put", "patch", "put"])
            #expect(
                events.map(\.data) == [
                    #"{"path":"/","data":{"a":1}}"#, #"{"path":"/b","data":2}"#, #"{"path":"/","data":{"c":3,"d":4}}"#,
                    #"{"path":"/","data":{"z":0}}"#,
                ])
        }
    }

    @Test func metricsEndpointReportsRequestsAndFsyncs() async throws {
        try await TestNode.with { node in
            _ = try await node.request("PUT", "/m.json", body: "1")
            let metrics = try await node.request("GET", "/.metrics")
            #expect(metrics.status == 200)
            #expect(metrics.text.contains("hearth_http_requests_total{method=\"PUT\",status=\"200\"} 1"))
            #expect(metrics.text.contains("hearth_wal_fsyncs_total"))
            #expect(metrics.text.contains("hearth_open_streams"))
        }
    }

    @Test func dataSurvivesARestart() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let directory = temporary.path
        try await TestNode.with(dataDirectory: directory) { node in
            _ = try await node.request("PUT", "/keep.json", body: #"{"a":[1,2,3]}"#)
            _ = try await node.request("PATCH", "/.json", body: #"{"x/y/z":1,"p/q":2}"#)
        }
        try await TestNode.with(dataDirectory: directory) { node in
            let all = try await node.request("GET", "/.json").text
            #expect(all == #"{"keep":{"a":[1,2,3]},"p":{"q":2},"x":{"y":{"z":1}}}"#)
        }
    }
}

/// One server-sent event as the tests compare it.
struct Event: Sendable {
    var name: String
    var data: String
}
