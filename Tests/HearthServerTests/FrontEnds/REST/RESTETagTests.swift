import HearthTestKit
import Testing

/// ETags and conditional requests over REST, as Firebase's REST API answers them and as firebase-admin's
/// `get(etag=True)`, `get_if_changed`, `set_if_unchanged` and `transaction` call them.
@Suite struct RESTETagTests {
    /// `get_if_changed`: a stale tag gets the data and the current tag; the current tag gets a 304 with the tag and
    /// no body.
    @Test func ifNoneMatchAlwaysAnswersWithTheCurrentTag() async throws {
        try await TestNode.with { node in
            _ = try await node.request("PUT", "/posts/1.json", body: #"{"stars":3}"#)
            let changed = try await node.request("GET", "/posts/1.json", headers: [("if-none-match", "stale")])
            #expect(changed.status == 200)
            #expect(changed.text == #"{"stars":3}"#)
            let tag = try #require(changed.header("ETag"))
            #expect(tag != "null_etag")
            let unchanged = try await node.request("GET", "/posts/1.json", headers: [("if-none-match", tag)])
            #expect(unchanged.status == 304)
            #expect(unchanged.header("ETag") == tag)
            #expect(unchanged.body.isEmpty && (unchanged.header("Content-Length") ?? "0") == "0")
            let empty = try await node.request("GET", "/nothing.json", headers: [("if-none-match", tag)])
            #expect(empty.status == 200 && empty.text == "null" && empty.header("ETag") == "null_etag")
        }
    }

    /// `get(etag=True)` gets the tag with the data; with `print=silent` the tag comes with a 204 and no body; a plain
    /// GET carries no tag.
    @Test func xFirebaseETagOnReadsAndSilentReads() async throws {
        try await TestNode.with { node in
            _ = try await node.request("PUT", "/x.json", body: "1")
            let read = try await node.request("GET", "/x.json", headers: [("X-Firebase-ETag", "true")])
            let tag = try #require(read.header("ETag"))
            #expect(read.text == "1")
            let silent = try await node.request(
                "GET", "/x.json?print=silent", headers: [("X-Firebase-ETag", "true")])
            #expect(silent.status == 204 && silent.body.isEmpty && silent.header("ETag") == tag)
            #expect(try await node.request("GET", "/x.json").header("ETag") == nil)
        }
    }

    /// `set_if_unchanged` and `transaction`: a matching `if-match` writes and returns the new tag (also with
    /// `print=silent`); a stale one changes nothing and gets 412 with the current data and tag.
    @Test func ifMatchOnPutWritesOnlyOverTheTagRead() async throws {
        try await TestNode.with { node in
            let first = try #require(
                try await node.request("GET", "/n.json", headers: [("X-Firebase-ETag", "true")]).header("ETag"))
            #expect(first == "null_etag")
            let written = try await node.request("PUT", "/n.json", body: "1", headers: [("if-match", first)])
            #expect(written.status == 200 && written.text == "1")
            let second = try #require(written.header("ETag"))
            let stale = try await node.request("PUT", "/n.json", body: "5", headers: [("if-match", first)])
            #expect(stale.status == 412 && stale.text == "1" && stale.header("ETag") == second)
            let silent = try await node.request(
                "PUT", "/n.json?print=silent", body: "2", headers: [("if-match", second)])
            #expect(silent.status == 204 && silent.body.isEmpty)
            let third = try #require(silent.header("ETag"))
            #expect(third != second)
            #expect(try await node.request("GET", "/n.json", headers: [("if-none-match", third)]).status == 304)
        }
    }

    /// DELETE honours `if-match` as PUT does; a plain write with `X-Firebase-ETag: true` returns the new tag, and an
    /// error answer carries none.
    @Test func ifMatchOnDeleteAndTagsOnWritesAndErrors() async throws {
        try await TestNode.with { node in
            let put = try await node.request("PUT", "/d.json", body: #""a""#, headers: [("X-Firebase-ETag", "true")])
            let tag = try #require(put.header("ETag"))
            let stale = try await node.request("DELETE", "/d.json", headers: [("if-match", "null_etag")])
            #expect(stale.status == 412 && stale.text == #""a""# && stale.header("ETag") == tag)
            #expect(try await node.request("GET", "/d.json").text == #""a""#)
            let deleted = try await node.request("DELETE", "/d.json", headers: [("if-match", tag)])
            #expect(deleted.status == 200 && deleted.text == "null" && deleted.header("ETag") == "null_etag")
            let refused = try await node.request(
                "PUT", "/d.json", body: "{bad", headers: [("X-Firebase-ETag", "true")])
            #expect(refused.status == 400 && refused.text.hasPrefix(#"{"error""#) && refused.header("ETag") == nil)
            #expect(try await node.request("GET", "/d.json").text == "null")
        }
    }

    /// Conditional requests are PUT's and DELETE's: a PATCH or POST with `if-match` (matching or not, pipelined or
    /// alone) is refused with a 400 and `{"error": …}`, and changes nothing.
    @Test func ifMatchOnPatchOrPostIsRefusedAndChangesNothing() async throws {
        try await TestNode.with { node in
            let put = try await node.request(
                "PUT", "/p.json", body: #"{"a":1}"#, headers: [("X-Firebase-ETag", "true")])
            let tag = try #require(put.header("ETag"))
            for (method, body) in [("PATCH", #"{"a":2}"#), ("POST", "3")] {
                for condition in [tag, "null_etag", "stale"] {
                    let refused = try await node.request(
                        method, "/p.json", body: body, headers: [("if-match", condition)])
                    #expect(refused.status == 400, "\(method) with if-match \(condition)")
                    #expect(refused.text.hasPrefix(#"{"error":"if-match"#) && refused.text.contains(method))
                }
            }
            #expect(try await node.request("GET", "/p.json").text == #"{"a":1}"#)
            let patched = try await node.request("PATCH", "/p.json", body: #"{"a":2}"#)
            #expect(patched.status == 200 && patched.text == #"{"a":2}"#)
        }
    }
}
