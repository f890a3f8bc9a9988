import HearthCore
import HearthNet
import HearthWire
import Testing

@testable import HearthFrontEnds

/// A message's WebSocket frames are made once: one text frame of the message's own bytes when it fits one frame
/// (every acknowledgement), else the count frame and the message split on character boundaries. A response framed
/// as it is encoded is the same frame.
@Suite struct WireOutboundTests {
    /// A message that fits one frame is framed from its bytes, exactly as the splitter's one frame would be.
    @Test func aMessageThatFitsOneFrameIsFramedAsTheSplitterWouldFrameIt() throws {
        for text in [#"{"t":"d","d":{"r":7,"b":{"s":"ok","d":{}}}}"#, "héllo, wörld ✓", ""] {
            let message = Array(text.utf8)
            let expected = try #require(WireFrameSplitter.frames(message)).map(WebSocketFrameEncoder.encodeText)
            #expect(WireOutbound(message).webSocketFrames == expected)
        }
    }

    /// A response framed where it is encoded (`WebSocketWireTransport.send(_:)` of a server message) is the very
    /// frame `WireOutbound` makes of its encoded bytes: acknowledgements of any id, refusals, and a long answer
    /// whose frame header is longer than two bytes.
    @Test func aResponseFramedWhereItIsEncodedIsTheFrameOfItsBytes() throws {
        let long = WireData.json(.string(String(repeating: "x", count: 300)))
        let messages: [WireServerMessage] =
            [0, 7, -1, 125, Int64.max, Int64.min].map { .response(id: $0, .okEmpty) } + [
                .response(id: 3, .failure(WireProtocolError(.permissionDenied, "Permission denied"))),
                .response(id: 4, .ok(long)), .pong,
            ]
        for message in messages {
            let encoded = message.encoded()
            let framed = WebSocketFrameEncoder.encodeText { message.encode(into: &$0) }
            #expect([framed] == WireOutbound(encoded).webSocketFrames, "\(String(decoding: encoded, as: UTF8.self))")
            var appended = Array("prefix".utf8)
            message.encode(into: &appended)
            #expect(appended == Array("prefix".utf8) + encoded)
        }
    }

    /// An acknowledgement framed where it is written (`WebSocketWireTransport.sendAcknowledgement(id:)`) is the frame
    /// `WireOutbound` makes of the encoded `ok` response, for ids of every length and sign.
    @Test func anAcknowledgementFramedWhereItIsWrittenIsTheFrameOfTheOkResponse() {
        let room = WireServerMessage.maximumAcknowledgementBytes
        for id: Int64 in [0, 7, -1, 125, 126, 65_536, Int64.max, Int64.min] {
            let framed = WebSocketFrameEncoder.encodeShortText(capacity: room) {
                WireServerMessage.writeAcknowledgement(id: id, to: $0)
            }
            let encoded = WireServerMessage.response(id: id, .okEmpty).encoded()
            #expect([framed] == WireOutbound(encoded).webSocketFrames, "id \(id)")
        }
    }

    /// A message longer than a frame leaves as the count frame and then its pieces.
    @Test func aLongerMessageIsSplitIntoCountPrefixedFrames() throws {
        let message = Array(String(repeating: "é", count: WireFrameSplitter.maximumFrameBytes).utf8)
        let frames = try #require(WireOutbound(message).webSocketFrames)
        #expect(frames.count == 3)
        #expect(frames.first == WebSocketFrameEncoder.encodeText("2"))
    }
}
