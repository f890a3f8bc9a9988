import HearthTestKit
import Testing

@testable import HearthServer

/// Answers to writes never show data the caller may not read: not the value in a 412, not the size of the data a
/// write would replace in a `writeSizeLimit` error.
@Suite struct UnreadableDataTests {
    static let owner = [("Authorization", "Bearer owner")]

    /// A wrong `if-match` shows the current value in the 412 only to a caller who may read it; one who may only
    /// write gets the ETag and an error without the data.
    @Test func aFailedCompareAndSetShowsTheValueOnlyToReaders() async throws {
        try await TestNode.with { node in
            let rules = #"{"rules": {"box": {".write": true}, "shelf": {".write": true, ".read": true}}}"#
            let put = try await node.request("PUT", "/.settings/rules.json", body: rules, headers: Self.owner)
            try #require(put.status == 200, "\(put.text)")
            #expect(try await node.request("PUT", "/box.json", body: #""secret-value""#).status == 200)
            #expect(try await node.request("PUT", "/shelf.json", body: #""open-value""#).status == 200)
            let hidden = try await node.request(
                "PUT", "/box.json", body: "1", headers: [("if-match", "wrong-etag")])
            #expect(hidden.status == 412)
            #expect(!hidden.text.contains("secret-value") && hidden.text.contains("\"error\""), "\(hidden.text)")
            #expect(hidden.header("ETag").map { !$0.isEmpty } == true)
            let shown = try await node.request(
                "PUT", "/shelf.json", body: "1", headers: [("if-match", "wrong-etag")])
            #expect(shown.status == 412 && shown.text == #""open-value""#)
            #expect(shown.header("ETag") != nil)
        }
    }

    /// A `writeSizeLimit` too small for the data a write replaces is told only to a caller the rules let write
    /// there; anyone else gets the rules' 401, whatever the size of the data.
    @Test func aSizeErrorIsToldOnlyToCallersAllowedToWrite() async throws {
        try await TestNode.with { node in
            let rules = #"{"rules": {"vault": {".write": "auth != null"}, "shed": {".write": true}}}"#
            let put = try await node.request("PUT", "/.settings/rules.json", body: rules, headers: Self.owner)
            try #require(put.status == 200, "\(put.text)")
            let big = "\"" + String(repeating: "v", count: 2 << 20) + "\""
            for path in ["/vault.json", "/shed.json"] {
                let seeded = try await node.request("PUT", path, body: big, headers: Self.owner)
                try #require(seeded.status == 200, "\(seeded.text)")
            }
            let hidden = try await node.request("DELETE", "/vault.json?writeSizeLimit=tiny")
            #expect(hidden.status == 401 && hidden.text == #"{"error":"Permission denied"}"#, "\(hidden.text)")
            let told = try await node.request("DELETE", "/shed.json?writeSizeLimit=tiny")
            #expect(told.status == 400 && told.text.contains("writeSizeLimit=tiny"), "\(told.text)")
        }
    }
}
