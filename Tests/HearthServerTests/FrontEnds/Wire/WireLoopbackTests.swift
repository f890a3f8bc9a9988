import Foundation
import HearthCore
import HearthTestKit
import Testing

@testable import HearthServer

/// The realtime protocol over a real socket against an in-process node, one raw-frame client per connection.
@Suite struct WireLoopbackTests {
    @Test func handshakeComesFirstWithServerTimeHostAndSessionID() async throws {
        try await TestNode.with { node in
            try await onDedicatedThread {
                let before = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
                let client = try WireTestClient(port: node.port, host: "db.example:9000")
                let handshake = client.handshake
                #expect(handshake["v"] == .string("5"))
                #expect(handshake["h"] == .string("db.example:9000"))
                let timestamp = try #require(handshake["ts"]?.intValue)
                #expect(abs(timestamp - before) < 5000)
                #expect(client.sessionID.count == 32 && client.sessionID.allSatisfy { $0.isLetter || $0.isNumber })
                try client.socket.sendText("0")
                try client.socket.sendText(#"{"t":"c","d":{"t":"p","d":{}}}"#)
                #expect(try client.socket.readText() == #"{"t":"c","d":{"t":"o","d":null}}"#)
            }
        }
    }

    @Test func everyActionAnswersWithTheDocumentedShape() async throws {
        try await TestNode.with { node in
            try await onDedicatedThread {
                let client = try WireTestClient(port: node.port)
                let ok = JSONValue.string("ok")
                #expect(try client.call("s", #"{"c":{"sdk.js.8-10-1":1}}"#) == json(#"{"s":"ok","d":""}"#))
                // An unsigned token is no proof of anything unless the node is told to believe them.
                let unsigned = try client.call("auth", #"{"cred":"eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1MSJ9."}"#)
                #expect(unsigned["s"] == .string("invalid_token") && unsigned["d"]?.stringValue?.isEmpty == false)
                let auth = try client.call("gauth", #"{"cred":"owner"}"#)
                let authData = try json(#"{"auth":null,"expires":null}"#)
                #expect(auth["s"] == ok && auth["d"] == authData)
                #expect(try client.call("unauth", "{}")["s"] == ok)
                #expect(try client.call("appcheck", #"{"token":"x"}"#)["s"] == ok)
                #expect(try client.call("unappeck", "{}")["s"] == ok)
                #expect(try client.call("unappcheck", "{}")["s"] == ok)
                #expect(
                    try client.call("p", #"{"p":"/users/ada","d":{"name":"Ada","born":1815}}"#)
                        == json(#"{"s":"ok","d":{}}"#))
                #expect(try client.call("p", #"{"p":"users/ada/.priority","d":7}"#)["s"] == ok)
                #expect(try client.call("m", #"{"p":"/users","d":{"ada/born":1816,"bob":{"name":"Bob"}}}"#)["s"] == ok)
                let get = try client.call("g", #"{"p":"/users","q":{}}"#)
                #expect(
                    get
                        == (try json(
                            #"{"s":"ok","d":{"ada":{".priority":7,"born":1816,"name":"Ada"},"bob":{"name":"Bob"}}}"#)))
                let limited = try client.call("g", #"{"p":"/users","q":{"i":".key","l":1,"vf":"r"}}"#)
                #expect(limited["d"] == (try json(#"{"bob":{"name":"Bob"}}"#)))
                let listen = try client.call("q", #"{"p":"/users/bob","h":""}"#)
                #expect(listen == (try json(#"{"s":"ok","d":{}}"#)))
                #expect(try client.nextPush() == json(#"{"a":"d","b":{"p":"users/bob","d":{"name":"Bob"}}}"#))
                #expect(try client.call("l", #"{"p":"/users/ada","h":""}"#)["s"] == ok)
                _ = try client.nextPush()
                #expect(try client.call("n", #"{"p":"/users/bob"}"#)["s"] == ok)
                #expect(try client.call("u", #"{"p":"/users/ada"}"#)["s"] == ok)
                #expect(try client.call("o", #"{"p":"/presence","d":true}"#) == json(#"{"s":"ok","d":{}}"#))
                #expect(try client.call("om", #"{"p":"/presence2","d":{"a":1}}"#)["s"] == ok)
                #expect(try client.call("oc", #"{"p":"/","d":null}"#)["s"] == ok)

                let unknown = try client.call("zz", "{}")
                #expect(unknown["s"] == .string("invalid_request") && unknown["d"]?.stringValue != nil)
                for bad in [
                    #"{"p":"/a/b[c","d":1}"#, #"{"p":"/a","d":{"x.y":1}}"#, #"{"p":"/a"}"#, #"{"d":1}"#,
                    #"{"p":"/a","d":{".sv":"nonsense"}}"#,
                ] {
                    let answer = try client.call("p", bad)
                    #expect(answer["s"] != ok && answer["d"]?.stringValue != nil, "\(bad)")
                }
                let overlap = try client.call("m", #"{"p":"/","d":{"a":1,"a/b":2}}"#)
                #expect(overlap["s"] == .string("invalid_data"))
                #expect(try client.call("g", #"{"p":"/a","q":{}}"#)["d"] == .null)
            }
        }
    }

    @Test func writersOwnListenSeesTheDataBeforeTheOk() async throws {
        try await TestNode.with { node in
            try await onDedicatedThread {
                let client = try WireTestClient(port: node.port)
                _ = try client.call("q", #"{"p":"/room","h":""}"#)
                #expect(try client.nextPush() == json(#"{"a":"d","b":{"p":"room","d":null}}"#))
                for index in 0..<20 {
                    let id = try client.send(
                        "p", #"{"p":"/room/msg\#(index)","d":{"n":\#(index),"at":{".sv":"timestamp"}}}"#)
                    let push = try client.readMessage()["d"]
                    #expect(push?["a"] == .string("d") && push?["b"]?["p"] == .string("room/msg\(index)"))
                    #expect(push?["b"]?["d"]?["at"]?.intValue != nil)
                    let response = try client.readMessage()["d"]
                    #expect(response?["r"]?.intValue == id && response?["b"]?["s"] == .string("ok"))
                }
                _ = try client.call("m", #"{"p":"/room","d":{"msg0":null,"msg1/n":100}}"#)
                #expect(try client.nextPush() == json(#"{"a":"m","b":{"p":"room","d":{"msg0":null,"msg1/n":100}}}"#))
                _ = try client.call("p", #"{"p":"/","d":{"room":{"x":1}}}"#)
                #expect(try client.nextPush() == json(#"{"a":"d","b":{"p":"room","d":{"x":1}}}"#))
            }
        }
    }

    @Test func taggedLimitToLastKeepsItsWindowAndPushesOnlyChanges() async throws {
        try await TestNode.with { node in
            try await onDedicatedThread {
                let writer = try WireTestClient(port: node.port)
                _ = try writer.call("p", #"{"p":"/list","d":{"a":1,"b":2,"c":3,"d":4,"e":5}}"#)
                let reader = try WireTestClient(port: node.port)
                let query = #"{"i":".key","l":3,"vf":"r"}"#
                let ok = try reader.call("q", #"{"p":"/list","h":"","q":\#(query),"t":1}"#)
                #expect(ok == (try json(#"{"s":"ok","d":{}}"#)))
                #expect(try reader.nextPush() == json(#"{"a":"d","b":{"p":"list","d":{"c":3,"d":4,"e":5},"t":1}}"#))
                _ = try writer.call("p", #"{"p":"/list/f","d":6}"#)
                #expect(try reader.nextPush() == json(#"{"a":"m","b":{"p":"list","d":{"c":null,"f":6},"t":1}}"#))
                _ = try writer.call("p", #"{"p":"/list/a","d":100}"#)
                _ = try writer.call("p", #"{"p":"/list/e","d":50}"#)
                #expect(try reader.nextPush() == json(#"{"a":"m","b":{"p":"list","d":{"e":50},"t":1}}"#))
                _ = try writer.call("p", #"{"p":"/list/f","d":null}"#)
                #expect(try reader.nextPush() == json(#"{"a":"m","b":{"p":"list","d":{"c":3,"f":null},"t":1}}"#))
                _ = try reader.call("n", #"{"p":"/list","q":\#(query),"t":1}"#)
                _ = try writer.call("p", #"{"p":"/list/z","d":9}"#)
                #expect(reader.socket.isSilent(forSeconds: 0.2))
            }
        }
    }

    @Test func compareAndSetUsesFirebaseHashesAndAnswersDatastale() async throws {
        try await TestNode.with { node in
            try await onDedicatedThread {
                let client = try WireTestClient(port: node.port)
                _ = try client.call("p", #"{"p":"/stars","d":{"b":"x","a":true}}"#)
                let stale = try client.call("p", #"{"p":"/stars","d":1,"h":"wrong"}"#)
                #expect(stale["s"] == .string("datastale") && stale["d"]?.stringValue != nil)
                let expected = try WriteValue.parseWrite(Array(#"{"b":"x","a":true}"#.utf8), depth: 1).node.hash
                #expect(expected == "1fykEhPLGT4yK3I4Qdp2Kq8bZ34=")
                #expect(try client.call("p", #"{"p":"/stars","d":1,"h":"\#(expected)"}"#)["s"] == .string("ok"))
                #expect(
                    try client.call("p", #"{"p":"/stars","d":2,"h":"YPVfR2bXt/lcDjiQZ8pOkAd3qkQ="}"#)["s"]
                        == .string("ok"))
                #expect(try client.call("p", #"{"p":"/fresh","d":2,"h":""}"#)["s"] == .string("ok"))
                #expect(try client.call("p", #"{"p":"/fresh","d":3,"h":""}"#)["s"] == .string("datastale"))
            }
        }
    }

    @Test func transactionsFromManyClientsLoseNoIncrement() async throws {
        try await TestNode.with { node in
            let port = node.port
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        try await onDedicatedThread {
                            let client = try WireTestClient(port: port)
                            var current: Int64 = 0
                            var hash = ""
                            let initial = try client.call("g", #"{"p":"/counter","q":{}}"#)
                            if let value = initial["d"]?.intValue {
                                current = value
                                hash = Node(.int(value)).hash
                            }
                            var done = 0
                            while done < 10 {
                                let answer = try client.call(
                                    "p", #"{"p":"/counter","d":\#(current + 1),"h":"\#(hash)"}"#)
                                if answer["s"] == .string("ok") {
                                    done += 1
                                    current += 1
                                } else {
                                    current = try client.call("g", #"{"p":"/counter","q":{}}"#)["d"]?.intValue ?? 0
                                }
                                hash = Node(.int(current)).hash
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            let total = try await onDedicatedThread {
                try WireTestClient(port: port).call("g", #"{"p":"/counter","q":{}}"#)["d"]
            }
            #expect(total == .int(40))
        }
    }
}
