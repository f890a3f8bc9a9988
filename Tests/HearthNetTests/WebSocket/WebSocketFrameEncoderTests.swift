import HearthNet
import Testing

@Suite struct WebSocketFrameEncoderTests {
    /// A text frame made from UTF-8 bytes is the frame made from the same text.
    @Test func aTextFrameFromUTF8BytesEqualsOneFromTheText() {
        for text in ["Hello", "", "ünïcödé ✓", String(repeating: "x", count: 300)] {
            #expect(WebSocketFrameEncoder.encodeText(utf8: Array(text.utf8)) == WebSocketFrameEncoder.encodeText(text))
        }
    }

    /// A short text frame written in place is the frame made from the same bytes, whatever room it was given and
    /// up to the longest payload a two-byte header carries.
    @Test func aShortTextFrameWrittenInPlaceEqualsOneFromItsBytes() {
        for text in ["Hello", "", "ünïcödé ✓", String(repeating: "x", count: 125)] {
            let bytes = Array(text.utf8)
            for capacity in [bytes.count, 125] {
                let frame = WebSocketFrameEncoder.encodeShortText(capacity: capacity) { room in
                    _ = room.initialize(fromContentsOf: bytes)
                    return bytes.count
                }
                #expect(frame == WebSocketFrameEncoder.encodeText(utf8: bytes), "\(text) in \(capacity)")
            }
        }
    }

    @Test func encodesTheUnmaskedAndMaskedHelloFromRFC6455() {
        #expect(WebSocketFrameEncoder.encodeText("Hello") == [0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F])
        let masked = WebSocketFrameEncoder.encodeFrame(
            .text,
            payload: Array("Hello".utf8),
            maskingKey: WebSocketMaskingKey(0x37, 0xFA, 0x21, 0x3D)
        )
        #expect(masked == [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58])
    }

    @Test func encodesAFragmentWithoutFIN() {
        #expect(
            WebSocketFrameEncoder.encodeFrame(.text, payload: Array("Hel".utf8), isFinal: false).prefix(2) == [
                0x01, 0x03,
            ]
        )
        #expect(WebSocketFrameEncoder.encodeFrame(.continuation, payload: Array("lo".utf8)).prefix(2) == [0x80, 0x02])
    }

    @Test(
        arguments: [
            (125, [0x7D]), (126, [0x7E, 0x00, 0x7E]), (65535, [0x7E, 0xFF, 0xFF]),
            (65536, [0x7F, 0, 0, 0, 0, 0, 0x01, 0x00, 0x00]),
        ] as [(Int, [UInt8])]
    )
    func usesTheShortestLengthEncoding(length: Int, lengthBytes: [UInt8]) {
        let frame = WebSocketFrameEncoder.encodeBinary([UInt8](repeating: 9, count: length))
        #expect(frame[0] == 0x82)
        #expect(Array(frame[1..<(1 + lengthBytes.count)]) == lengthBytes)
        #expect(frame.count == 1 + lengthBytes.count + length)
    }

    @Test func encodesPingPongAndCutsControlPayloadsTo125Bytes() {
        #expect(WebSocketFrameEncoder.encodePing() == [0x89, 0x00])
        #expect(WebSocketFrameEncoder.encodePong([1, 2]) == [0x8A, 0x02, 1, 2])
        let long = WebSocketFrameEncoder.encodePing([UInt8](repeating: 7, count: 300))
        #expect(long.count == 2 + 125)
        #expect(long[1] == 125)
    }

    @Test func encodesCloseWithCodeAndReason() {
        #expect(WebSocketFrameEncoder.encodeClose(code: 1000, reason: "ok") == [0x88, 0x04, 0x03, 0xE8, 0x6F, 0x6B])
        #expect(WebSocketFrameEncoder.encodeClose(code: nil, reason: "ignored") == [0x88, 0x00])
    }

    @Test(arguments: [1005, 1006, 1015, 999, 5000] as [UInt16])
    func neverSendsLocalOnlyOrInvalidCloseCodes(code: UInt16) {
        #expect(WebSocketFrameEncoder.encodeClose(code: code, reason: "why") == [0x88, 0x00])
    }

    @Test func cutsALongCloseReasonOnACharacterBoundary() throws {
        let reason = String(repeating: "é", count: 100)
        let body = WebSocketFrameEncoder.closePayload(code: 1011, reason: reason)
        #expect(body.count <= 125)
        #expect(body.count == 2 + 122)
        let text = try #require(String(validating: body[2...], as: UTF8.self))
        #expect(text == String(repeating: "é", count: 61))
        let mixed = WebSocketFrameEncoder.closePayload(code: 1000, reason: String(repeating: "a", count: 121) + "😀")
        #expect(mixed.count == 2 + 121)
    }

    @Test func serverFramesParseBackInClientMode() {
        let frames =
            WebSocketFrameEncoder.encodeText(String(repeating: "x", count: 70_000))
            + WebSocketFrameEncoder.encodeBinary([1]) + WebSocketFrameEncoder.encodeClose(code: 4000, reason: "bye")
        let parse = parseWebSocket(frames, expectsMaskedFrames: false)
        let expected: [WebSocketEvent] = [
            .text(String(repeating: "x", count: 70_000)), .binary([1]), .close(code: 4000, reason: "bye"),
        ]
        #expect(parse == WebSocketParse(events: expected))
    }
}
