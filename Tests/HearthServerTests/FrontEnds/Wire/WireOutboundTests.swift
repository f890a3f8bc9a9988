import HearthNet
import HearthWire
import Testing

@testable import HearthFrontEnds

/// A message's WebSocket frames are made once: one text frame of the message's own bytes when it fits one frame
/// (every acknowledgement), else the count frame and the message split on character boundaries.
@Suite struct WireOutboundTests {
    /// A message that fits one frame is framed from its bytes, exactly as the splitter's one frame would be.
    @Test func aMessageThatFitsOneFrameIsFramedAsTheSplitterWouldFrameIt() throws {
        for text in [#"{"t":"d","d":{"r":7,"b":{"s":"ok","d":{}}}}"#, "héllo, wörld ✓", ""] {
            let message = Array(text.utf8)
            let expected = try #require(WireFrameSplitter.frames(message)).map(WebSocketFrameEncoder.encodeText)
            #expect(WireOutbound(message).webSocketFrames == expected)
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
