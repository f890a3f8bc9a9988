import HearthNet
import HearthTestKit
import Testing

/// Seeded streams of frames: the parser's output must match a model and never depend on how input is split.
@Suite struct WebSocketFrameParserPropertyTests {
    /// Random valid client traffic and the events it must produce.
    private struct Traffic {
        var bytes: [UInt8] = []
        var events: [WebSocketEvent] = []
    }

    private static func randomText(length: Int, using random: inout SeededRandom) -> String {
        var text = ""
        let ranges: [ClosedRange<UInt32>] = [0x20...0x7E, 0xA0...0x17F, 0x4E00...0x4FFF, 0x1F600...0x1F64F]
        for _ in 0..<length {
            let range = ranges[Int.random(in: 0..<ranges.count, using: &random)]
            if let scalar = Unicode.Scalar(UInt32.random(in: range, using: &random)) {
                text.unicodeScalars.append(scalar)
            }
        }
        return text
    }

    /// Cuts `payload` into `count` pieces (some possibly empty) at random points.
    private static func split(_ payload: [UInt8], into count: Int, using random: inout SeededRandom) -> [[UInt8]] {
        var cuts = (0..<(count - 1)).map { _ in Int.random(in: 0...payload.count, using: &random) }
        cuts.sort()
        var pieces: [[UInt8]] = []
        var start = 0
        for cut in cuts + [payload.count] {
            pieces.append(Array(payload[start..<cut]))
            start = cut
        }
        return pieces
    }

    private static func randomControl(using random: inout SeededRandom) -> (frame: [UInt8], event: WebSocketEvent) {
        let payload = (0..<Int.random(in: 0...125, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random)
        }
        let key = WebSocketMaskingKey(using: &random)
        if Bool.random(using: &random) {
            return (clientFrame(.ping, payload, maskingKey: key), .ping(payload))
        }
        return (clientFrame(.pong, payload, maskingKey: key), .pong(payload))
    }

    private static func traffic(seed: UInt64, messages: Int, maximumLength: Int) -> Traffic {
        var random = SeededRandom(seed: seed)
        var traffic = Traffic()
        for _ in 0..<messages {
            let isText = Bool.random(using: &random)
            let length = Int.random(in: 0...maximumLength, using: &random)
            let payload: [UInt8]
            if isText {
                let text = Self.randomText(length: length / 3, using: &random)
                payload = Array(text.utf8)
                traffic.events.append(.text(text))
            } else {
                payload = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
                traffic.events.append(.binary(payload))
            }
            let pieces = Self.split(payload, into: Int.random(in: 1...4, using: &random), using: &random)
            var controls: [WebSocketEvent] = []
            for (index, piece) in pieces.enumerated() {
                let opcode: WebSocketOpcode = index == 0 ? (isText ? .text : .binary) : .continuation
                let key = WebSocketMaskingKey(using: &random)
                traffic.bytes += clientFrame(opcode, piece, isFinal: index == pieces.count - 1, maskingKey: key)
                if index < pieces.count - 1 && Int.random(in: 0..<3, using: &random) == 0 {
                    let control = Self.randomControl(using: &random)
                    traffic.bytes += control.frame
                    controls.append(control.event)
                }
            }
            traffic.events.insert(contentsOf: controls, at: traffic.events.count - 1)
        }
        traffic.bytes += clientClose(code: 1000, reason: "done")
        traffic.events.append(.close(code: 1000, reason: "done"))
        return traffic
    }

    @Test(arguments: 0..<20 as Range<UInt64>)
    func matchesTheModelHoweverTheInputIsSplit(seed: UInt64) {
        let traffic = Self.traffic(seed: seed, messages: 12, maximumLength: 400)
        let expected = WebSocketParse(events: traffic.events)
        #expect(parseWebSocket(traffic.bytes) == expected, "seed \(seed)")
        #expect(parseWebSocket(traffic.bytes, chunking: .byteByByte) == expected, "seed \(seed)")
        #expect(parseWebSocket(traffic.bytes, chunking: .random(seed: seed, maximum: 64)) == expected, "seed \(seed)")
    }

    @Test(arguments: 100..<104 as Range<UInt64>)
    func matchesTheModelForLargeMessagesInRandomChunks(seed: UInt64) {
        let traffic = Self.traffic(seed: seed, messages: 6, maximumLength: 200_000)
        let expected = WebSocketParse(events: traffic.events)
        #expect(parseWebSocket(traffic.bytes) == expected, "seed \(seed)")
        let parse = parseWebSocket(traffic.bytes, chunking: .random(seed: seed, maximum: 20_000))
        #expect(parse == expected, "seed \(seed)")
    }

    /// Valid traffic followed by garbage: whatever the error, every split reports the same events and error.
    @Test(arguments: 200..<230 as Range<UInt64>)
    func reportsTheSameErrorHoweverTheInputIsSplit(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var traffic = Self.traffic(seed: seed, messages: 3, maximumLength: 100)
        traffic.bytes.removeLast(clientClose(code: 1000, reason: "done").count)
        traffic.bytes += (0..<24).map { _ in UInt8.random(in: 0...255, using: &random) }
        let whole = parseWebSocket(traffic.bytes, maximumMessageBytes: 4096)
        #expect(
            parseWebSocket(traffic.bytes, chunking: .byteByByte, maximumMessageBytes: 4096) == whole,
            "seed \(seed)"
        )
        let chunked = parseWebSocket(
            traffic.bytes,
            chunking: .random(seed: seed, maximum: 16),
            maximumMessageBytes: 4096
        )
        #expect(chunked == whole, "seed \(seed)")
    }

    /// 10,000 random byte strings, as server and as client, whole and in random pieces: no trap, same answer.
    @Test func survivesRandomBytes() {
        let seed: UInt64 = 0x5EED_F00D
        var random = SeededRandom(seed: seed)
        for index in 0..<10_000 {
            let length = Int.random(in: 0...96, using: &random)
            var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            if index % 2 == 0, !bytes.isEmpty {
                bytes[0] = bytes[0] & 0x8F
            }
            let isServer = index % 3 != 0
            let whole = parseWebSocket(bytes, maximumMessageBytes: 256, expectsMaskedFrames: isServer)
            let chunked = parseWebSocket(
                bytes,
                chunking: .random(seed: UInt64(index), maximum: 8),
                maximumMessageBytes: 256,
                expectsMaskedFrames: isServer
            )
            if whole != chunked {
                Issue.record("seed \(seed) case \(index): \(whole) vs \(chunked)")
                return
            }
        }
    }
}
