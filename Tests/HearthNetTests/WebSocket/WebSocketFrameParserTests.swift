import HearthNet
import Testing

@Suite struct WebSocketFrameParserTests {
    @Test func decodesTheMaskedHelloFromRFC6455() {
        let frame: [UInt8] = [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
        #expect(parseWebSocket(frame) == WebSocketParse(events: [.text("Hello")]))
    }

    @Test func decodesEveryMessageAndControlKind() {
        let input =
            clientText("héllo") + clientFrame(.binary, [0, 1, 2, 255]) + clientFrame(.ping, [7])
            + clientFrame(.pong, []) + clientText("") + clientClose(code: 1000, reason: "bye")
        let expected: [WebSocketEvent] = [
            .text("héllo"), .binary([0, 1, 2, 255]), .ping([7]), .pong([]), .text(""),
            .close(code: 1000, reason: "bye"),
        ]
        #expect(parseWebSocket(input) == WebSocketParse(events: expected))
    }

    @Test func joinsFragmentsAndDeliversAnInterleavedPingFirst() {
        let input =
            clientText("Hel", isFinal: false) + clientFrame(.ping, Array("are you there".utf8))
            + clientFrame(.continuation, Array("lo, ".utf8), isFinal: false)
            + clientFrame(.pong, [1]) + clientFrame(.continuation, Array("world".utf8))
        let expected: [WebSocketEvent] = [.ping(Array("are you there".utf8)), .pong([1]), .text("Hello, world")]
        #expect(parseWebSocket(input, chunking: .byteByByte) == WebSocketParse(events: expected))
    }

    @Test func joinsFragmentedBinary() {
        let input =
            clientFrame(.binary, [1, 2], isFinal: false) + clientFrame(.continuation, [], isFinal: false)
            + clientFrame(.continuation, [3])
        #expect(parseWebSocket(input) == WebSocketParse(events: [.binary([1, 2, 3])]))
    }

    @Test func acceptsUTF8SplitAcrossFragments() {
        let euro: [UInt8] = [0xE2, 0x82, 0xAC]
        let emoji: [UInt8] = [0xF0, 0x9F, 0x98, 0x80]
        let input =
            clientFrame(.text, [euro[0]], isFinal: false) + clientFrame(.continuation, [euro[1]], isFinal: false)
            + clientFrame(.continuation, [euro[2], emoji[0], emoji[1]], isFinal: false)
            + clientFrame(.continuation, [emoji[2], emoji[3]])
        #expect(parseWebSocket(input) == WebSocketParse(events: [.text("€😀")]))
    }

    @Test func rejectsInvalidUTF8SplitAcrossFragmentsWith1007() {
        let input = clientFrame(.text, [0xE2, 0x82], isFinal: false) + clientFrame(.continuation, [0x41])
        let parse = parseWebSocket(input)
        #expect(parse.error?.code == .invalidUTF8)
        #expect(parse.closeCode == 1007)
        #expect(parse.events.isEmpty)
    }

    @Test func rejectsTextEndingInsideACharacterWith1007() {
        let input = clientFrame(.text, [0x41], isFinal: false) + clientFrame(.continuation, [0xF0, 0x9F])
        #expect(parseWebSocket(input).closeCode == 1007)
    }

    @Test(arguments: [[0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xFF], [0x80]] as [[UInt8]])
    func rejectsOverlongSurrogateAndOutOfRangeTextWith1007(bytes: [UInt8]) {
        #expect(parseWebSocket(clientFrame(.text, bytes)).closeCode == 1007)
    }

    @Test func failsFastOnInvalidUTF8BeforeTheMessageEnds() {
        let header = Array(clientFrame(.text, [0xFF] + [UInt8](repeating: 0x41, count: 200)).prefix(9))
        #expect(parseWebSocket(header).closeCode == 1007)
    }

    @Test func binaryMayHoldInvalidUTF8() {
        #expect(parseWebSocket(clientFrame(.binary, [0xFF, 0xC0])) == WebSocketParse(events: [.binary([0xFF, 0xC0])]))
    }

    @Test(arguments: [0, 1, 125, 126, 127, 65535, 65536, 70000])
    func roundTripsPayloadLengthsAcrossEncodingBoundaries(length: Int) throws {
        let payload = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let frame = clientFrame(.binary, payload)
        let headerLength = length <= 125 ? 2 : (length <= 65535 ? 4 : 10)
        #expect(frame.count == headerLength + 4 + length)
        #expect(parseWebSocket(frame) == WebSocketParse(events: [.binary(payload)]))
        let parse = parseWebSocket(frame, chunking: .random(seed: UInt64(length), maximum: 4096))
        #expect(parse == WebSocketParse(events: [.binary(payload)]), "seed \(length)")
    }

    @Test func ignoresEverythingAfterAClose() {
        let input = clientClose(code: nil) + clientText("late") + [0xFF, 0xFF]
        #expect(parseWebSocket(input) == WebSocketParse(events: [.close(code: nil, reason: "")]))
    }

    @Test func keepsThrowingTheSameErrorOnceFailed() throws {
        var parser = WebSocketFrameParser()
        parser.append(clientFrame(.text, [0xFF]))
        #expect(throws: WebSocketProtocolError.self) { try parser.nextEvent() }
        parser.append(clientText("ok"))
        let error = #expect(throws: WebSocketProtocolError.self) { try parser.nextEvent() }
        #expect(error?.code == .invalidUTF8)
        #expect(parser.isFinished)
    }

    @Test func readsUnmaskedServerFramesInClientMode() {
        let input = WebSocketFrameEncoder.encodeText("hi") + WebSocketFrameEncoder.encodeClose(code: 1001)
        let parse = parseWebSocket(input, expectsMaskedFrames: false)
        #expect(parse == WebSocketParse(events: [.text("hi"), .close(code: 1001, reason: "")]))
        #expect(parseWebSocket(clientText("hi"), expectsMaskedFrames: false).error?.code == .maskedFrame)
    }

    /// A text message in one frame that arrived whole (decoded where it lies in the input) gives the same text, or
    /// the same error, as the same frame fed a byte at a time (decoded through the message buffer).
    @Test(
        arguments: [
            [], Array("Hello".utf8), Array("héllo wörld, a realtime put of some length ✓".utf8),
            [0x68, 0xFF, 0x69], [0x68, 0xC3], Array(String(repeating: "ünï", count: 500).utf8),
            [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x41, 0xF0, 0x9F, 0x98],
            // Above `decodesBeforeValidatingAtMost`, validated before it is decoded: valid, invalid, cut off.
            Array(String(repeating: "ünï", count: 14_000).utf8), [UInt8](repeating: 0xFF, count: 70_000),
            [UInt8](repeating: 0x61, count: 70_000) + [0xC3],
        ] as [[UInt8]]
    )
    func aWholeTextFrameParsesAsItDoesByteByByte(payload: [UInt8]) {
        let input = clientFrame(.text, payload) + clientText("next")
        let whole = parseWebSocket(input)
        #expect(whole == parseWebSocket(input, chunking: .byteByByte))
        #expect(whole.error?.code == (String(validating: payload, as: UTF8.self) == nil ? .invalidUTF8 : nil))
    }
}
