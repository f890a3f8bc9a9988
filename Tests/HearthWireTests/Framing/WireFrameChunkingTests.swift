import HearthTestKit
import HearthWire
import Testing

/// Splitting then reassembling gives back exactly the messages sent, whatever the frame size, with keep-alives
/// between messages.
@Suite struct WireFrameChunkingTests {
    /// A JSON-shaped message of `length` characters drawn from ASCII, two-, three- and four-byte scalars.
    private static func message(length: Int, using random: inout SeededRandom) -> String {
        let alphabet: [Character] = ["a", "7", "é", "€", "😀", "\"", " "]
        let text = String((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] })
        return #"{"x":""# + text + "}"
    }

    @Test func splitThenAssembleIsTheIdentityForAnyFrameSize() throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SeededRandom(seed: seed)
        for _ in 0..<50 {
            let frameBytes = Int.random(in: 4...300, using: &random)
            let messages = (0..<Int.random(in: 1...8, using: &random)).map { _ in
                Self.message(length: Int.random(in: 0...2000, using: &random), using: &random)
            }
            var assembler = WireFrameAssembler(maximumMessageBytes: 1 << 20)
            var received: [String] = []
            for message in messages {
                if Bool.random(using: &random) { #expect(try assembler.onFrame("0") == nil, "seed \(seed)") }
                let frames = try #require(
                    WireFrameSplitter.frames(Array(message.utf8), maximumFrameBytes: frameBytes), "seed \(seed)")
                #expect(frames.allSatisfy { $0.utf8.count <= max(frameBytes, 6) }, "seed \(seed)")
                for frame in frames {
                    if let whole = try assembler.onFrame(frame) { received.append(whole) }
                }
                #expect(!assembler.isMidMessage, "seed \(seed)")
            }
            #expect(received == messages, "seed \(seed)")
        }
    }

    @Test func longPollSegmentsReassembleInOrderWhateverOrderTheyArrive() throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SeededRandom(seed: seed)
        for _ in 0..<50 {
            let length = Int.random(in: 1...120, using: &random)
            let messages = (0..<Int.random(in: 1...6, using: &random)).map { _ in
                Self.message(length: Int.random(in: 0...600, using: &random), using: &random)
            }
            var segments: [WireLongPollAssembler.Segment] = []
            for message in messages {
                segments += WireLongPollAssembler.segments(
                    for: message, firstNumber: segments.count, maximumLength: length)
            }
            #expect(segments.allSatisfy { $0.data.count <= length }, "seed \(seed)")
            var assembler = WireLongPollAssembler(
                maximumMessageBytes: 1 << 20, window: segments.count + 1, segmentLength: length)
            var received: [String] = []
            for segment in segments.shuffled(using: &random) {
                received += try assembler.receive(segment)
            }
            #expect(received == messages, "seed \(seed)")
        }
    }

    @Test func longPollMessagesAreReleasedOnlyOnceEveryEarlierOneIsComplete() throws {
        let first = WireLongPollAssembler.segments(for: #"{"a":1}"#, firstNumber: 0, maximumLength: 4)
        let second = WireLongPollAssembler.segments(for: #"{"b":2}"#, firstNumber: first.count)
        var assembler = WireLongPollAssembler(maximumMessageBytes: 1 << 20, segmentLength: 4)
        #expect(try assembler.receive(second[0]).isEmpty)
        for segment in first.dropLast() { #expect(try assembler.receive(segment).isEmpty) }
        #expect(try assembler.receive(first[first.count - 1]) == [#"{"a":1}"#, #"{"b":2}"#])
    }

    @Test func longPollSegmentsThatAreNotBase64AreRefused() {
        var assembler = WireLongPollAssembler(maximumMessageBytes: 1 << 20)
        #expect(throws: WireProtocolError(.malformedFrame, "A long-poll segment is not web-safe base64.")) {
            try assembler.receive(.init(number: 0, total: 1, data: "not base64!"))
        }
    }
}
