import HearthCore
import HearthWire
import Testing

/// The envelopes every official client requires (reference §1.3, §1.7, §1.8).
@Suite struct WireMessageShapeTests {
    @Test func envelopesDecodeAndBadOnesNameTheProblem() throws {
        #expect(try WireClientMessage(decoding: #"{"t":"c","d":{"t":"p","d":{}}}"#) == .control(.ping))
        let request = try WireClientMessage(decoding: #"{"t":"d","d":{"r":7,"a":"q","b":{"p":"/a"}}}"#)
        #expect(request == .request(id: 7, .listen(path: "/a", query: nil, tag: nil, hash: nil)))
        for bad in ["nope", "[]", #"{"t":"x","d":{}}"#, #"{"t":"d","d":{"a":"q"}}"#, #"{"t":"d","d":{"r":1}}"#] {
            let error = #expect(throws: WireClientMessage.DecodingError.self) { try WireClientMessage(decoding: bad) }
            guard case .malformed(let reason)? = error else {
                Issue.record("\(bad) should be malformed, not \(String(describing: error))")
                continue
            }
            #expect(reason.code == .malformedFrame && !reason.message.isEmpty)
        }
    }

    @Test func outboundShapesMatchWhatClientsRequire() throws {
        #expect(
            String(decoding: WireServerMessage.pong.encoded(), as: UTF8.self) == #"{"t":"c","d":{"t":"o","d":null}}"#)
        let failure = try JSONReader.parseValue(
            WireServerMessage.response(id: 3, .failure(WireProtocolError(.dataStale, "changed"))).encoded())
        #expect(
            failure
                == .object([
                    "t": .string("d"),
                    "d": .object([
                        "r": .int(3), "b": .object(["s": .string("datastale"), "d": .string("changed")]),
                    ]),
                ]))
        let push = try JSONReader.parseValue(
            WireServerMessage.mergePush(
                path: try Path(validating: "/a"),
                changes: [
                    WireMergeChange(relative: try Path(validating: "/b"), data: .node(Node(.int(1)))),
                    WireMergeChange(relative: try Path(validating: "/c"), data: .node(.empty)),
                ],
                tag: 4
            ).encoded())
        #expect(
            push
                == .object([
                    "t": .string("d"),
                    "d": .object([
                        "a": .string("m"),
                        "b": .object(["p": .string("a"), "d": .object(["b": .int(1), "c": .null]), "t": .int(4)]),
                    ]),
                ]))
    }
}
