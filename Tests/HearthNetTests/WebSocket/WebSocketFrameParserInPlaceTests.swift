import HearthTestKit
import Testing

@testable import HearthNet

/// A text message left where it lies in the parser's input (`nextInbound()`, the realtime path's read) is the
/// message `nextEvent()` gives, and every other frame, error and split of the input parses as `nextEvent()` parses it.
@Suite struct WebSocketFrameParserInPlaceTests {
    /// What a parser fed `pieces` one at a time gave, draining after each piece: with `nextInbound()` when
    /// `inPlace`, each message read in place shown as the `String` of its bytes; and how many were read in place.
    private static func parse(_ pieces: [[UInt8]], inPlace: Bool) -> (parse: WebSocketParse, inPlace: Int) {
        var parser = WebSocketFrameParser()
        var result = WebSocketParse()
        var count = 0
        for piece in pieces {
            parser.append(piece)
            do {
                if !inPlace {
                    while let event = try parser.nextEvent() { result.events.append(event) }
                    continue
                }
                while let inbound = try parser.nextInbound() {
                    switch inbound {
                    case .event(let event):
                        result.events.append(event)
                    case .textInPlace(let text):
                        count += 1
                        result.events.append(.text(text.withUTF8 { String(decoding: $0, as: UTF8.self) }))
                    }
                }
            } catch {
                result.error = error
                return (result, count)
            }
        }
        return (result, count)
    }

    /// `input` cut into pieces of random sizes from 1 to `maximum`, drawn from `seed`.
    private static func pieces(of input: [UInt8], seed: UInt64, maximum: Int) -> [[UInt8]] {
        var random = SeededRandom(seed: seed)
        var pieces: [[UInt8]] = []
        var offset = 0
        while offset < input.count {
            let end = min(input.count, offset + Int.random(in: 1...maximum, using: &random))
            pieces.append(Array(input[offset..<end]))
            offset = end
        }
        return pieces
    }

    private static let payloads: [[UInt8]] = [
        [], Array("Hello".utf8), Array(#"{"t":"d","d":{"r":1,"a":"m","b":{"p":"/","d":{"a/b":1}}}}"#.utf8),
        Array("héllo wörld, a realtime put of some length ✓".utf8), [0x68, 0xFF, 0x69], [0x68, 0xC3],
        Array(String(repeating: "ünï", count: 500).utf8), [0xC0, 0x80], [0xED, 0xA0, 0x80],
        [0xF4, 0x90, 0x80, 0x80], [0x41, 0xF0, 0x9F, 0x98], [UInt8](repeating: 0x61, count: 70_000),
        [UInt8](repeating: 0x61, count: 70_000) + [0xC3],
    ]

    /// A text frame that arrives alone (a client that waits for each answer) is read in place when it is valid
    /// UTF-8, and gives the same text, or the same error, as `nextEvent()`.
    @Test(arguments: Self.payloads)
    func aTextFrameArrivingAloneIsReadInPlace(payload: [UInt8]) {
        let pieces = [clientFrame(.text, payload), clientText("next"), clientFrame(.binary, payload)]
        let general = Self.parse(pieces, inPlace: false).parse
        let (parse, inPlace) = Self.parse(pieces, inPlace: true)
        #expect(parse == general)
        let isValid = String(validating: payload, as: UTF8.self) != nil
        #expect(inPlace == (isValid ? 2 : 0))
        #expect(parse.error?.code == (isValid ? nil : .invalidUTF8))
    }

    /// Frames that share a read, fragments, control frames and masked payloads split anywhere parse as
    /// `nextEvent()` parses them; only a whole text frame that ends what was read is read in place.
    @Test(arguments: 0..<40 as Range<UInt64>)
    func anyStreamParsesAsTheGeneralWayParsesIt(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var input: [UInt8] = []
        for _ in 0..<Int.random(in: 1...6, using: &random) {
            let payload = Self.payloads[Int.random(in: 0..<(Self.payloads.count - 2), using: &random)]
            let key = WebSocketMaskingKey(using: &random)
            switch Int.random(in: 0..<4, using: &random) {
            case 0: input += clientFrame(.text, payload, maskingKey: key)
            case 1: input += clientFrame(.binary, payload, maskingKey: key)
            case 2:
                let cut = Int.random(in: 0...payload.count, using: &random)
                input += clientFrame(.text, Array(payload[..<cut]), isFinal: false, maskingKey: key)
                input += clientFrame(.ping, [1, 2, 3], maskingKey: key)
                input += clientFrame(.continuation, Array(payload[cut...]), maskingKey: key)
            default: input += clientFrame(.pong, [], maskingKey: key)
            }
        }
        for maximum in [1, 7, 64, input.count] {
            let pieces = Self.pieces(of: input, seed: seed, maximum: max(1, maximum))
            #expect(Self.parse(pieces, inPlace: true).parse == Self.parse(pieces, inPlace: false).parse)
        }
    }

    /// The bytes read in place stay as they were while the parser takes more input and unmasks it in place.
    @Test func theBytesReadInPlaceOutliveLaterInput() throws {
        var parser = WebSocketFrameParser()
        parser.append(clientText("first"))
        guard case .textInPlace(let first)? = try parser.nextInbound() else {
            Issue.record("the whole frame was not read in place")
            return
        }
        parser.append(clientText("second") + clientText("third"))
        var later: [String] = []
        while let inbound = try parser.nextInbound() {
            switch inbound {
            case .event(.text(let text)): later.append(text)
            case .textInPlace(let text): later.append(text.withUTF8 { String(decoding: $0, as: UTF8.self) })
            case .event: Issue.record("an event that was not sent")
            }
        }
        #expect(later == ["second", "third"])
        #expect(first.withUTF8 { String(decoding: $0, as: UTF8.self) } == "first")
    }
}
