import HearthCore
import HearthWire
import Testing

/// Client → server requests: every action decodes from what the SDKs send, encodes back, and round-trips.
@Suite struct WireRequestCodingTests {
    private static let query = try? QuerySpec(
        wire: JSONReader.parseValue(#"{"i":"age","sp":18,"sin":true,"l":5,"vf":"r"}"#))

    /// One of each request, shaped as an SDK sends it.
    private static var everyRequest: [WireRequest] {
        [
            .listen(path: "/users/ada", query: nil, tag: nil, hash: ""),
            .listen(path: "users", query: Self.query, tag: 3, hash: "abc="),
            .listen(path: "/", query: nil, tag: 4, hash: nil),
            .unlisten(path: "/users/ada", query: nil, tag: nil),
            .unlisten(path: "users", query: Self.query, tag: 3),
            .put(path: "/users/ada", data: .object(["name": .string("Ada"), "born": .int(1815)]), hash: nil),
            .put(path: "/counter", data: .int(2), hash: "k8nZ0gR6yR6b7RmVXMJ2gRpGpO0="),
            .put(path: "/gone", data: .null, hash: ""),
            .merge(path: "/", data: ["posts/p1/stars/u1": .bool(true), "posts/p1/.priority": .double(1.5)]),
            .put(
                path: "/stars", data: .int(1), hash: nil,
                origin: try? WriteOrigin(client: "a-1_Z", sequence: 7, settledBelow: 5)),
            .merge(path: "/", data: ["a": .null], origin: try? WriteOrigin(client: "c", sequence: 1, settledBelow: 1)),
            .get(path: "/users", query: nil),
            .get(path: "/users", query: Self.query),
            .onDisconnectPut(path: "/presence/ada", data: .object(["seen": .object([".sv": .string("timestamp")])])),
            .onDisconnectMerge(path: "/status", data: ["ada": .string("offline")]),
            .onDisconnectCancel(path: "/presence"),
            .auth(credential: "eyJhbGciOiJub25lIn0.eyJpYXQiOjF9."),
            .googleAuth(credential: "owner"),
            .auth(credential: "owner", acting: .auth(.object(["uid": .string("alice")]))),
            .googleAuth(credential: "owner", acting: .unauthenticated),
            .unauth,
            .appCheck(token: "token"),
            .appCheck(token: nil),
            .unAppCheck,
            .stats(counters: .object(["sdk.js.11-0-0": .int(1)])),
        ]
    }

    @Test func everyRequestRoundTripsThroughItsEnvelope() throws {
        for (offset, request) in Self.everyRequest.enumerated() {
            let message = WireClientMessage.request(id: Int64(offset + 1), request)
            let text = String(decoding: message.encoded(), as: UTF8.self)
            #expect(try WireClientMessage(decoding: text) == message, "\(text)")
        }
    }

    @Test func controlMessagesRoundTripIncludingUnknownTypes() throws {
        for control in [WireClientControl.ping, .endOfTransmission, .switchAck, WireClientControl(type: "zz")] {
            let text = String(decoding: WireClientMessage.control(control).encoded(), as: UTF8.self)
            #expect(try WireClientMessage(decoding: text) == .control(control))
        }
        #expect(
            String(decoding: WireClientMessage.control(.ping).encoded(), as: UTF8.self)
                == #"{"d":{"d":{},"t":"p"},"t":"c"}"#)
    }

    /// Requests copied from the reference's traces decode to the expected values.
    @Test func sdkShapedRequestsDecode() throws {
        let cases: [(String, JSONValue, WireRequest)] = [
            ("q", try JSONReader.parseValue(#"{"p":"/","h":""}"#), .listen(path: "/", query: nil, tag: nil, hash: "")),
            ("l", try JSONReader.parseValue(#"{"p":"a"}"#), .listen(path: "a", query: nil, tag: nil, hash: nil)),
            ("u", try JSONReader.parseValue(#"{"p":"a"}"#), .unlisten(path: "a", query: nil, tag: nil)),
            ("unappcheck", .object([:]), .unAppCheck),
            ("unappeck", .object([:]), .unAppCheck),
            ("s", .object([:]), .stats(counters: .object([:]))),
            ("oc", try JSONReader.parseValue(#"{"p":"/a","d":null}"#), .onDisconnectCancel(path: "/a")),
            (
                "auth", try JSONReader.parseValue(#"{"cred":"t","authvar":{"uid":"x"}}"#),
                .auth(credential: "t", acting: .auth(.object(["uid": .string("x")])))
            ),
            (
                "gauth", try JSONReader.parseValue(#"{"cred":"owner","noauth":true}"#),
                .googleAuth(credential: "owner", acting: .unauthenticated)
            ),
            (
                "q", try JSONReader.parseValue(#"{"p":"/a","q":{"l":2,"vf":"l"},"t":7,"h":""}"#),
                .listen(
                    path: "/a", query: try QuerySpec(wire: .object(["l": .int(2), "vf": .string("l")])), tag: 7,
                    hash: "")
            ),
        ]
        for (action, body, expected) in cases {
            #expect(try WireRequest(action: action, body: body) == expected, "\(action) \(body)")
        }
    }

    /// An untagged listen is never filtered, so its `q` is not even read (as before the typed messages).
    @Test func anUntaggedListenIgnoresItsQuery() throws {
        let body = try JSONReader.parseValue(#"{"p":"/a","q":"not a query"}"#)
        #expect(try WireRequest(action: "q", body: body) == .listen(path: "/a", query: nil, tag: nil, hash: nil))
    }

    @Test func badRequestsAreRejectedWithTheStatusClientsExpect() {
        let cases: [(String, String, WireProtocolError.Code)] = [
            ("zz", #"{}"#, .invalidRequest),
            ("q", #"[]"#, .invalidRequest),
            ("q", #"{"p":1}"#, .invalidRequest),
            ("q", #"{"p":"/a","t":"x"}"#, .invalidRequest),
            ("q", #"{"p":"/a","t":1,"q":{"l":-1}}"#, .invalidRequest),
            ("g", #"{"p":"/a","q":{"vf":"l","l":0}}"#, .invalidRequest),
            ("p", #"{"p":"/a"}"#, .invalidData),
            ("p", #"{"p":"/a","d":1,"h":5}"#, .invalidRequest),
            ("p", #"{"p":"/a","d":1,"o":"c"}"#, .invalidRequest),
            ("p", #"{"p":"/a","d":1,"o":{"c":"","s":1,"a":0}}"#, .invalidRequest),
            ("p", #"{"p":"/a","d":1,"o":{"c":"a b","s":1,"a":0}}"#, .invalidRequest),
            ("p", #"{"p":"/a","d":1,"o":{"c":"a","s":0,"a":0}}"#, .invalidRequest),
            ("m", #"{"p":"/a","d":{},"o":{"c":"a","s":2,"a":3}}"#, .invalidRequest),
            ("m", #"{"p":"/a","d":{},"o":{"c":"a","s":2}}"#, .invalidRequest),
            ("m", #"{"p":"/a","d":[1]}"#, .invalidData),
            ("om", #"{"p":"/a","d":1}"#, .invalidData),
            ("o", #"{"p":"/a"}"#, .invalidData),
            ("auth", #"{}"#, .invalidRequest),
            ("gauth", #"{"cred":1}"#, .invalidRequest),
        ]
        for (action, body, code) in cases {
            let text = #"{"t":"d","d":{"r":9,"a":""# + action + #"","b":"# + body + "}}"
            let error = #expect(throws: WireClientMessage.DecodingError.self) { try WireClientMessage(decoding: text) }
            guard case .rejected(let id, let named, let reason)? = error else {
                Issue.record("\(text) should be rejected, not \(String(describing: error))")
                continue
            }
            #expect(id == 9 && named == action && reason.code == code, "\(text): \(reason)")
        }
    }

    @Test func unknownActionsNameWhatTheServerSpeaks() throws {
        let error = #expect(throws: WireProtocolError.self) { try WireRequest(action: "zz", body: .object([:])) }
        #expect(
            error?.message
                == "Unknown action \"zz\"; this server speaks protocol version 5 (q, n, p, m, g, o, om, oc, auth, unauth, s)."
        )
    }
}
