import HearthTestKit
import HearthWire
import Testing

/// Whatever numbers and data a long-polling client sends, the assembler never traps, holds a bounded amount and
/// does work linear in what arrives.
@Suite struct WireLongPollBoundsTests {
    private static let message = #"{"t":"d","d":{"r":1,"a":"g","b":{"p":"/x"}}}"#

    /// Whether `error` is a refusal with `code`.
    private static func isRefusal(_ error: any Error, _ code: WireProtocolError.Code) -> Bool {
        (error as? WireProtocolError)?.code == code
    }

    /// The issue's crash: a segment that completes a message, then one announcing `Int.max` segments.
    @Test func aTotalOfIntMaxAfterACompleteMessageIsRefusedWithoutTrapping() throws {
        var assembler = WireLongPollAssembler(maximumMessageBytes: 1 << 20)
        let first = WireLongPollAssembler.segments(for: Self.message, firstNumber: 0)
        #expect(try assembler.receive(first[0]) == [Self.message])
        #expect(throws: WireProtocolError.self) {
            try assembler.receive(.init(number: 1, total: Int.max, data: "e30."))
        }
        #expect(throws: WireProtocolError.self) {
            try assembler.receive(.init(number: Int.max, total: Int.max, data: "e30."))
        }
    }

    /// Negative numbers, and totals below one or above what the largest message needs, are refused.
    @Test func negativeNumbersAndImpossibleTotalsAreRefused() {
        var assembler = WireLongPollAssembler(maximumMessageBytes: 1 << 20)
        for segment in [
            WireLongPollAssembler.Segment(number: -1, total: 1, data: "e30."),
            .init(number: Int.min, total: 1, data: "e30."),
            .init(number: 0, total: 0, data: "e30."),
            .init(number: 0, total: -5, data: "e30."),
            .init(number: 0, total: 1_000_000_000_000, data: "e30."),
            .init(number: 0, total: assembler.maximumSegmentsPerMessage + 1, data: "e30."),
        ] {
            #expect(throws: WireProtocolError.self) { try assembler.receive(segment) }
        }
        #expect(assembler.heldBytes == 0)
    }

    /// A segment more than the window past the first missing one is refused; one just inside is held.
    @Test func segmentsFarAheadOfTheNextExpectedOneAreRefused() throws {
        var assembler = WireLongPollAssembler(maximumMessageBytes: 1 << 20, window: 64)
        #expect(try assembler.receive(.init(number: 63, total: 1, data: "e30.")).isEmpty)
        #expect(assembler.heldBytes > 0)
        for number in [64, 1000, Int.max] {
            #expect {
                try assembler.receive(.init(number: number, total: 1, data: "e30."))
            } throws: {
                Self.isRefusal($0, .malformedFrame)
            }
        }
    }

    /// The window moves with the first missing segment, so a message longer than the window still arrives.
    @Test func aMessageLongerThanTheWindowArrivesInOrder() throws {
        let long = #"{"x":""# + String(repeating: "y", count: 4000) + #""}"#
        let segments = WireLongPollAssembler.segments(for: long, firstNumber: 0, maximumLength: 10)
        #expect(segments.count > 500)
        var assembler = WireLongPollAssembler(maximumMessageBytes: 1 << 20, window: 8, segmentLength: 10)
        var received: [String] = []
        for segment in segments { received += try assembler.receive(segment) }
        #expect(received == [long])
        #expect(assembler.heldBytes == 0)
    }

    /// A segment sent twice, or one of a message already released, is ignored and changes nothing.
    @Test func duplicateSegmentsAreIgnored() throws {
        let first = WireLongPollAssembler.segments(for: Self.message, firstNumber: 0, maximumLength: 8)
        var assembler = WireLongPollAssembler(maximumMessageBytes: 1 << 20, segmentLength: 8)
        #expect(try assembler.receive(first[1]).isEmpty)
        let held = assembler.heldBytes
        #expect(
            try assembler.receive(WireLongPollAssembler.Segment(number: 1, total: first.count, data: "AAAA")).isEmpty)
        #expect(assembler.heldBytes == held)
        var received: [String] = []
        for segment in first where segment.number != 1 { received += try assembler.receive(segment) }
        #expect(received == [Self.message])
        #expect(try assembler.receive(first[0]).isEmpty)
        #expect(assembler.heldBytes == 0)
    }

    /// Segments in any order within the window give back the messages in order.
    @Test func outOfOrderSegmentsWithinTheWindowReassemble() throws {
        let messages = (0..<20).map { #"{"n":"# + String($0) + "}" }
        var segments: [WireLongPollAssembler.Segment] = []
        for message in messages {
            segments += WireLongPollAssembler.segments(for: message, firstNumber: segments.count, maximumLength: 3)
        }
        var assembler = WireLongPollAssembler(maximumMessageBytes: 1 << 20, window: 16, segmentLength: 3)
        var received: [String] = []
        var random = SeededRandom(seed: 36)
        for start in stride(from: 0, to: segments.count, by: 12) {
            for segment in segments[start..<min(start + 12, segments.count)].shuffled(using: &random) {
                received += try assembler.receive(segment)
            }
        }
        #expect(received == messages)
    }

    /// 60,000 large segments numbered far ahead: the window takes a bounded number, the rest are refused, and
    /// what is held never passes the bound.
    @Test func farAheadSegmentsHoldABoundedAmount() {
        var assembler = WireLongPollAssembler(maximumMessageBytes: 16 << 20)
        let data = String(repeating: "A", count: 1800)
        var refused = 0
        for number in 1...60_000 {
            do {
                _ = try assembler.receive(.init(number: number, total: 1, data: data))
            } catch {
                refused += 1
            }
            #expect(assembler.heldBytes <= assembler.maximumHeldBytes)
        }
        #expect(refused == 60_000 - (assembler.window - 1))
        #expect(assembler.heldBytes <= assembler.window * (1800 + 64))
    }

    /// Within the window, the bytes held are bounded too: segments of any length pass the bound only by refusal.
    @Test func theBytesHeldAreBounded() throws {
        var assembler = WireLongPollAssembler(maximumMessageBytes: 1024, window: 256)
        let data = String(repeating: "A", count: 64 * 1024)
        #expect {
            for number in 1...256 { _ = try assembler.receive(.init(number: number, total: 1, data: data)) }
        } throws: {
            Self.isRefusal($0, .messageTooBig)
        }
        #expect(assembler.heldBytes <= assembler.maximumHeldBytes)
    }

    /// A long-poll message that decodes to more than `--max-message-bytes` is refused, as a WebSocket one is.
    /// (Whether the segments it announces already say so, or only its decoded length does.)
    @Test(arguments: [2100, 3000]) func aMessageLargerThanTheLimitIsRefused(length: Int) {
        let big = #"{"x":""# + String(repeating: "y", count: length) + #""}"#
        var assembler = WireLongPollAssembler(maximumMessageBytes: 2048)
        #expect {
            for segment in WireLongPollAssembler.segments(for: big, firstNumber: 0) {
                _ = try assembler.receive(segment)
            }
        } throws: {
            Self.isRefusal($0, .messageTooBig)
        }
    }

    /// The issue's freeze: a message announcing many segments, then 40,000 of them arriving two at a time out of
    /// order. Each arrival is filed once (the old assembler rescanned every stored segment each time), so this
    /// takes a small fraction of a second even in a debug build.
    @Test func fortyThousandSegmentsTakeLinearWork() throws {
        let count = 40_000
        var assembler = WireLongPollAssembler(maximumMessageBytes: 1 << 20, segmentLength: 4)
        #expect(assembler.maximumSegmentsPerMessage > count)
        let started = ContinuousClock.now
        for pair in stride(from: 0, to: count - 2, by: 2) {
            #expect(try assembler.receive(.init(number: pair + 1, total: count, data: "AAAA")).isEmpty)
            #expect(try assembler.receive(.init(number: pair, total: count, data: "AAAA")).isEmpty)
        }
        #expect(try assembler.receive(.init(number: count - 1, total: count, data: "e30.")).isEmpty)
        let messages = try assembler.receive(.init(number: count - 2, total: count, data: "AAAA"))
        #expect(messages.count == 1)
        #expect(assembler.heldBytes == 0)
        #expect(ContinuousClock.now - started < .seconds(1))
    }
}
