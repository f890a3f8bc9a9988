import HearthTestKit
import HearthWire
import Testing

/// Cutting outbound messages into WebSocket frames and reassembling inbound ones (reference §1.2).

@Suite struct WireFramingTests {
    @Test func singleFrameMessagePassesThrough() throws {
        var assembler = WireFrameAssembler(maximumMessageBytes: 1000)
        #expect(try assembler.onFrame(#"{"t":"d"}"#) == #"{"t":"d"}"#)
    }

    @Test func countFrameJoinsTheFollowingParts() throws {
        var assembler = WireFrameAssembler(maximumMessageBytes: 1000)
        #expect(try assembler.onFrame("3") == nil)
        #expect(assembler.isMidMessage)
        #expect(try assembler.onFrame(#"{"a""#) == nil)
        #expect(try assembler.onFrame(":") == nil)
        #expect(try assembler.onFrame("12}") == #"{"a":12}"#)
        #expect(!assembler.isMidMessage)
    }

    @Test func keepAliveZeroIsIgnoredWhenIdleButIsDataMidMessage() throws {
        var assembler = WireFrameAssembler(maximumMessageBytes: 1000)
        #expect(try assembler.onFrame("0") == nil)
        #expect(!assembler.isMidMessage)
        #expect(try assembler.onFrame("2") == nil)
        #expect(try assembler.onFrame("[1") == nil)
        #expect(try assembler.onFrame("0") == "[10")
    }

    @Test func oversizedMessagesAndCountsAreRefused() throws {
        var assembler = WireFrameAssembler(maximumMessageBytes: 10)
        #expect(throws: WireProtocolError.self) { try assembler.onFrame(String(repeating: "x", count: 11)) }
        var split = WireFrameAssembler(maximumMessageBytes: 10)
        _ = try split.onFrame("2")
        _ = try split.onFrame("123456")
        #expect(throws: WireProtocolError.self) { try split.onFrame("123456") }
        var counted = WireFrameAssembler(maximumMessageBytes: 10)
        #expect(throws: WireProtocolError.self) { try counted.onFrame("10000") }
    }

    @Test func shortMessagesAreOneFrameWithoutCount() {
        let frames = WireFrameSplitter.frames(Array(#"{"t":"c"}"#.utf8))
        #expect(frames == [#"{"t":"c"}"#])
    }

    @Test func longMessagesSplitOnScalarBoundariesUnderTheLimit() throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SeededRandom(seed: seed)
        let alphabet: [Character] = ["a", "é", "€", "😀", "\"", "z"]
        for _ in 0..<20 {
            let length = Int.random(in: 1...60_000, using: &random)
            let text = String((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] })
            let frames = try #require(WireFrameSplitter.frames(Array(text.utf8)), "seed \(seed)")
            if text.utf8.count <= WireFrameSplitter.maximumFrameBytes {
                #expect(frames == [text], "seed \(seed)")
                continue
            }
            let count = try #require(Int(frames[0]), "seed \(seed)")
            #expect(count == frames.count - 1 && count > 0, "seed \(seed)")
            #expect(
                frames.dropFirst().allSatisfy { $0.utf8.count <= WireFrameSplitter.maximumFrameBytes }, "seed \(seed)")
            #expect(frames.dropFirst().joined() == text, "seed \(seed)")
        }
    }

    @Test func messagesNeedingTooManyFramesAreRefused() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 10_000 * 4)
        #expect(WireFrameSplitter.frames(message, maximumFrameBytes: 4) == nil)
        #expect(WireFrameSplitter.frames(message, maximumFrameBytes: 5)?.first == "8000")
    }
}
