import HearthCore
import HearthWire
import Testing

/// Server → client messages: exact bytes where clients are strict, and a round trip for every message.
@Suite struct WireServerMessageCodingTests {
    private static func path(_ text: String) throws -> Path { try Path(validating: text) }

    private static func text(_ message: WireServerMessage) -> String {
        String(decoding: message.encoded(), as: UTF8.self)
    }

    /// A tree with a priority, a nested object, numbers of both kinds and a string.
    private static func tree() throws -> Node {
        try WriteValue(
            json: JSONReader.parseValue(#"{"a":{".value":1,".priority":2},"b":{"c":"x","d":2.5},".priority":"p"}"#),
            depth: 0
        ).node
    }

    @Test func everyMessageRoundTrips() throws {
        let query = try QuerySpec(wire: JSONReader.parseValue(#"{"i":".key","sp":"a","sin":false,"l":3,"vf":"l"}"#))
        let messages: [WireServerMessage] = [
            .handshake(WireHandshake(timestamp: 1_570_898_661_383, host: "127.0.0.1:9000", sessionID: "s1")),
            .pong,
            .endOfTransmission,
            .reset(host: "s-usc1c-nss-114.firebaseio.com"),
            .serverError("The specified payload is too large."),
            .shutdown(reason: "Namespace \"x\" does not exist."),
            .response(id: 1, .okEmpty),
            .response(id: 2, .ok(.json(.string("")))),
            .response(id: 3, .ok(.json(.object(["w": .array([.string("no_index")])])))),
            .response(id: 4, .ok(.node(try Self.tree()))),
            .response(id: 5, .ok(.node(.empty))),
            .response(id: 6, .failure(WireProtocolError(.dataStale, "changed"))),
            .response(id: 7, .failure(WireProtocolError(.init(status: "expired_token"), "Auth token is expired."))),
            .dataPush(path: .root, data: .node(try Self.tree()), tag: nil),
            .dataPush(path: try Self.path("/list/-Jvus/baz"), data: .node(Node(.int(1))), tag: 7),
            .dataPush(path: try Self.path("/a"), data: .node(.empty), tag: nil),
            .mergePush(
                path: try Self.path("/a"),
                changes: [
                    WireMergeChange(relative: try Self.path("b"), data: .node(Node(.int(1)))),
                    WireMergeChange(relative: try Self.path("c/d"), data: .node(.empty)),
                ],
                tag: 4),
            .listenRevoked(path: try Self.path("/secret"), query: nil),
            .listenRevoked(path: try Self.path("/secret"), query: query),
            .authRevoked(status: "expired_token", reason: "Auth token is expired."),
        ]
        for message in messages {
            let text = Self.text(message)
            #expect(try WireServerMessage(decoding: text) == message, "\(text)")
        }
    }

    @Test func controlMessagesHaveTheExactShapesClientsRead() throws {
        #expect(
            Self.text(.handshake(WireHandshake(timestamp: 1, host: "h:1", sessionID: "abc")))
                == #"{"t":"c","d":{"t":"h","d":{"h":"h:1","s":"abc","ts":1,"v":"5"}}}"#)
        #expect(Self.text(.endOfTransmission) == #"{"t":"c","d":{"t":"n","d":{}}}"#)
        #expect(Self.text(.shutdown(reason: "no")) == #"{"t":"c","d":{"t":"s","d":"no"}}"#)
        #expect(Self.text(.response(id: 12, .okEmpty)) == #"{"t":"d","d":{"r":12,"b":{"s":"ok","d":{}}}}"#)
        #expect(Self.text(.response(id: 1, .ok(.json(.string(""))))) == #"{"t":"d","d":{"r":1,"b":{"s":"ok","d":""}}}"#)
    }

    /// An acknowledgement written from its pieces (`writeAcknowledgement`, every committed write's answer) is the
    /// encoded `ok` response of its id, byte for byte, for ids of every length and sign, within
    /// `maximumAcknowledgementBytes`, leaving the rest of its room untouched.
    @Test func anAcknowledgementWrittenFromItsPiecesIsTheEncodedOkResponse() {
        var generator = SystemRandomNumberGenerator()
        // Random ids of every magnitude: a random value shifted right by a random count.
        let random = (0..<200).map { _ in
            Int64.random(in: Int64.min...Int64.max, using: &generator) >> Int64.random(in: 0...63, using: &generator)
        }
        let ids: [Int64] =
            [0, 1, 7, 9, 10, -1, -10, 125, 4096, Int64.max, Int64.min, Int64.max - 1, Int64.min + 1] + random
        let room = WireServerMessage.maximumAcknowledgementBytes
        for id in ids {
            var buffer = [UInt8](repeating: 0xFF, count: room + 4)
            let count = buffer.withUnsafeMutableBufferPointer { WireServerMessage.writeAcknowledgement(id: id, to: $0) }
            #expect(Array(buffer[..<count]) == WireServerMessage.response(id: id, .okEmpty).encoded(), "id \(id)")
            #expect(count <= room)
            #expect(buffer[count...].allSatisfy { $0 == 0xFF })
        }
    }

    @Test func pushesCarrySlashlessPathsAndTreesInExportFormat() throws {
        #expect(
            Self.text(.dataPush(path: .root, data: .node(try Self.tree()), tag: nil))
                == #"{"t":"d","d":{"a":"d","b":{"p":"","d":{"a":{".value":1,".priority":2},"b":{"c":"x","d":2.5},".priority":"p"}}}}"#
        )
        #expect(
            Self.text(.dataPush(path: try Self.path("/a/b"), data: .node(Node(.bool(true))), tag: 3))
                == #"{"t":"d","d":{"a":"d","b":{"p":"a/b","d":true,"t":3}}}"#)
        #expect(
            Self.text(.listenRevoked(path: try Self.path("/a"), query: nil))
                == #"{"t":"d","d":{"a":"c","b":{"p":"a"}}}"#)
    }

    /// What a client stores from a push is the tree the server sent.
    @Test func decodedDataBecomesTheSameTree() throws {
        let tree = try Self.tree()
        let decoded = try WireServerMessage(decoding: Self.text(.dataPush(path: .root, data: .node(tree), tag: nil)))
        guard case .dataPush(_, let data, _) = decoded else {
            Issue.record("not a data push: \(decoded)")
            return
        }
        #expect(try data.tree() == tree)
        #expect(throws: WireProtocolError.self) { try WireData.json(.object([".sv": .string("timestamp")])).tree() }
    }

    @Test func mergeChangesDecodeSortedByPath() throws {
        let text = #"{"t":"d","d":{"a":"m","b":{"p":"x","d":{"z":1,"a/b":2,"m":null}}}}"#
        let expected = WireServerMessage.mergePush(
            path: try Self.path("x"),
            changes: [
                WireMergeChange(relative: try Self.path("a/b"), data: .json(.int(2))),
                WireMergeChange(relative: try Self.path("m"), data: .json(.null)),
                WireMergeChange(relative: try Self.path("z"), data: .json(.int(1))),
            ],
            tag: nil)
        #expect(try WireServerMessage(decoding: text) == expected)
    }

    @Test func thingsThatAreNotServerMessagesAreRefused() {
        let bad = [
            "nope", #"{"t":"c","d":{"t":"zz"}}"#, #"{"t":"c","d":{"t":"h","d":{"ts":"x"}}}"#,
            #"{"t":"d","d":{"r":"x","b":{}}}"#, #"{"t":"d","d":{"a":"zz","b":{}}}"#,
            #"{"t":"d","d":{"a":"d","b":{"p":"a.b","d":1}}}"#, #"{"t":"d","d":{"a":"m","b":{"p":"a","d":1}}}"#,
        ]
        for text in bad {
            let error = #expect(throws: WireProtocolError.self, "\(text)") { try WireServerMessage(decoding: text) }
            #expect(error?.code == .malformedFrame)
        }
    }

    @Test func dataComparesAsJSONWhateverItsForm() throws {
        let tree = try Self.tree()
        #expect(WireData.node(tree) == .json(tree.jsonValue(format: .export)))
        #expect(WireData.node(.empty) == .json(.null))
        #expect(WireData.node(Node(.int(1))) != .json(.int(2)))
    }
}
