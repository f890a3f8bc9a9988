import HearthCore
import HearthTestKit
import Testing

@testable import HearthNode

/// Keys that differ only in their Unicode normalisation (`"é"`, U+00E9, and `"e\u{301}"`, `e` and a combining
/// acute accent) are two children through every front end, as in Firebase, which compares keys as code units: each
/// is stored, read back, ordered and pushed on its own, and a write to one never touches the other.
@Suite struct EquivalentKeysLoopbackTests {
    /// The two keys as JSON string contents (escaped, so the test's source text cannot normalise them).
    static let composed = #"\u00e9"#
    static let decomposed = #"e\u0301"#
    /// Both keys in one object, composed first.
    static let both = #"{"\u00e9":1,"e\u0301":2}"#

    /// The bytes of a JSON string, which `String`'s `==` (and so `JSONValue`'s for strings) would not compare.
    static func bytes(_ value: JSONValue?) -> [UInt8]? { value?.stringValue.map { Array($0.utf8) } }

    /// A realtime put keeps both children, a merge of one leaves the other alone, and a merge naming both paths
    /// sets both; queries by key see two children in Firebase's order (UTF-16: `e` before `é`).
    @Test func realtimePutsMergesAndQueriesKeepBothKeys() async throws {
        try await TestNode.with { node in
            try await onDedicatedThread {
                let client = try WireTestClient(port: node.port)
                let ok = JSONValue.string("ok")
                #expect(try client.call("p", #"{"p":"/n","d":\#(Self.both)}"#)["s"] == ok)
                #expect(try client.call("g", #"{"p":"/n","q":{}}"#)["d"] == json(Self.both))
                #expect(try client.call("m", #"{"p":"/n","d":{"\#(Self.composed)":10}}"#)["s"] == ok)
                #expect(try client.call("g", #"{"p":"/n","q":{}}"#)["d"] == json(#"{"\u00e9":10,"e\u0301":2}"#))
                let merge = #"{"\#(Self.composed)/x":"c","\#(Self.decomposed)/x":"d"}"#
                #expect(try client.call("m", #"{"p":"/m","d":\#(merge)}"#)["s"] == ok)
                #expect(
                    try client.call("g", #"{"p":"/m","q":{}}"#)["d"]
                        == json(#"{"\u00e9":{"x":"c"},"e\u0301":{"x":"d"}}"#))
                let first = try client.call("g", #"{"p":"/n","q":{"i":".key","l":1,"vf":"l"}}"#)
                #expect(first["d"] == (try json(#"{"e\u0301":2}"#)))
                let last = try client.call("g", #"{"p":"/n","q":{"i":".key","l":1,"vf":"r"}}"#)
                #expect(last["d"] == (try json(#"{"\u00e9":10}"#)))
                let after = try client.call("g", #"{"p":"/n","q":{"i":".key","sp":"\#(Self.decomposed)","sin":false}}"#)
                #expect(after["d"] == (try json(#"{"\u00e9":10}"#)))
            }
        }
    }

    /// A listener above both keys gets one push per write, at the path with the key's own bytes; removing one
    /// leaves the other.
    @Test func listenersArePushedEachKeyOnItsOwn() async throws {
        try await TestNode.with { node in
            try await onDedicatedThread {
                let reader = try WireTestClient(port: node.port)
                _ = try reader.call("q", #"{"p":"/room","h":""}"#)
                #expect(try reader.nextPush() == json(#"{"a":"d","b":{"p":"room","d":null}}"#))
                let writer = try WireTestClient(port: node.port)
                _ = try writer.call("p", #"{"p":"/room/\#(Self.composed)","d":1}"#)
                let first = try reader.nextPush()
                #expect(Self.bytes(first["b"]?["p"]) == Array("room/\u{E9}".utf8))
                #expect(first["b"]?["d"] == .int(1))
                _ = try writer.call("p", #"{"p":"/room/\#(Self.decomposed)","d":2}"#)
                let second = try reader.nextPush()
                #expect(Self.bytes(second["b"]?["p"]) == Array("room/e\u{301}".utf8))
                #expect(second["b"]?["d"] == .int(2))
                _ = try writer.call("m", #"{"p":"/room","d":{"\#(Self.composed)":null}}"#)
                let removal = try reader.nextPush()
                #expect(Self.bytes(removal["b"]?["p"]) == Array("room/\u{E9}".utf8))
                #expect(removal["b"]?["d"] == .null)
                #expect(try writer.call("g", #"{"p":"/room","q":{}}"#)["d"] == json(#"{"e\u0301":2}"#))
            }
        }
    }

    /// REST PUT, PATCH (read directly, and the general way when the direct reader declines) and POST keep both
    /// keys; a PATCH of one leaves the other alone.
    @Test func restWritesKeepBothKeys() async throws {
        try await TestNode.with { node in
            let put = try await node.request("PUT", "/r.json", body: Self.both)
            #expect(put.status == 200)
            #expect(try json(put.text) == json(Self.both))
            #expect(try json(try await node.request("GET", "/r.json").text) == json(Self.both))
            let patch = try await node.request("PATCH", "/r.json", body: #"{"\u00e9":3}"#)
            #expect(patch.status == 200)
            #expect(try json(try await node.request("GET", "/r.json").text) == json(#"{"\u00e9":3,"e\u0301":2}"#))
            // Both paths in one update; the duplicated "k" sends it the general way.
            for body in [#"{"\u00e9/x":4,"e\u0301/x":5}"#, #"{"k":0,"k":1,"\u00e9/x":4,"e\u0301/x":5}"#] {
                _ = try await node.request("DELETE", "/u.json")
                let update = try await node.request("PATCH", "/u.json", body: body)
                #expect(update.status == 200, "\(update.text)")
                let stored = try json(try await node.request("GET", "/u.json").text)
                #expect(stored["\u{E9}"] == (try json(#"{"x":4}"#)), "\(body)")
                #expect(stored["e\u{301}"] == (try json(#"{"x":5}"#)), "\(body)")
            }
            let post = try await node.request("POST", "/list.json", body: Self.both)
            #expect(post.status == 200)
            let name = try #require(try json(post.text)["name"]?.stringValue)
            #expect(try json(try await node.request("GET", "/list/\(name).json").text) == json(Self.both))
            let composedOnly = try await node.request("GET", "/r/%C3%A9.json")
            #expect(composedOnly.text == "3")
            #expect(try await node.request("GET", "/r/e%CC%81.json").text == "2")
        }
    }

    /// Rules tell the keys apart: `data.child` reads the child with the bytes it names, and rules for one key do
    /// not apply to the other.
    @Test func rulesTellTheKeysApart() async throws {
        let secret = "k7sJ2mQ9xw4Lr8Tz1vBn6Pc3Hd5Fg0Ye"
        let admin = [("Authorization", "Bearer \(secret)")]
        let rules = #"""
            {"rules": {".read": true,
              "a": {".write": "root.child('flags').child('\u00e9').val() === true"},
              "b": {".write": "root.child('flags').child('e\u0301').val() === true"},
              "c": {"\u00e9": {".write": true}, "e\u0301": {".write": false}}}}
            """#
        try await TestNode.with(configure: { $0.databaseSecrets = [secret] }) { node throws in
            #expect(try await node.request("PUT", "/.settings/rules.json", body: rules, headers: admin).status == 200)
            let flags = #"{"\u00e9":true,"e\u0301":false}"#
            #expect(try await node.request("PUT", "/flags.json", body: flags, headers: admin).status == 200)
            #expect(try await node.request("PUT", "/a.json", body: "1").status == 200)
            #expect(try await node.request("PUT", "/b.json", body: "1").status == 401)
            #expect(try await node.request("PUT", "/c/%C3%A9.json", body: "1").status == 200)
            #expect(try await node.request("PUT", "/c/e%CC%81.json", body: "1").status == 401)
            #expect(Array(try await node.request("GET", "/c.json").text.utf8) == Array("{\"\u{E9}\":1}".utf8))
        }
    }
}
