import HearthCore
import HearthTestKit
import HearthWire
import Testing

/// The paths written and read without a JSON tree give what the tree would: a request's envelope written in place
/// is `JSONValue.jsonBytes()` of the envelope, byte for byte, and an acknowledgement read from its exact bytes is
/// the full decoder's answer.
@Suite struct WireFastPathTests {
    /// The envelope as a `JSONValue`, as `encoded()` built it before it wrote the envelope in place.
    private static func envelope(_ message: WireClientMessage) -> JSONValue {
        switch message {
        case .control(let control):
            .object(["t": .string("c"), "d": .object(["t": .string(control.type), "d": .object([:])])])
        case .request(let id, let request):
            .object([
                "t": .string("d"), "d": .object(["r": .int(id), "a": .string(request.action), "b": request.body]),
            ])
        }
    }

    private static let origin = try? WriteOrigin(client: "c\"lient\u{2028}", sequence: 12, settledBelow: 9)

    private static var requests: [WireRequest] {
        let many = Dictionary(
            uniqueKeysWithValues: (0..<40).map { (JSONKey("k\($0 * 7 % 40)/x"), JSONValue.int(Int64($0))) })
        return [
            .put(path: "/a/b", data: .object(["z": .int(1), "10": .null, "2": .bool(true)]), hash: nil),
            .put(path: "/", data: .string("x\"y"), hash: "h=", origin: Self.origin),
            .put(path: "/c", data: .null, hash: "", origin: nil),
            .put(path: "/c", data: .double(1.5), hash: nil, origin: Self.origin),
            .merge(
                path: "/",
                data: [
                    "p/1/stars/u1": .bool(true), "p/1/starCount": .object([".sv": .object(["increment": .int(-1)])]),
                ]),
            .merge(path: "/x", data: many, origin: Self.origin),
            .merge(path: "/", data: [:], origin: nil),
            .listen(path: "/l", query: nil, tag: nil, hash: ""),
            .onDisconnectMerge(path: "/s", data: ["a": .int(1)]),
            .unauth,
        ]
    }

    @Test func aRequestIsWrittenAsItsEnvelopeWouldBe() throws {
        for (offset, request) in Self.requests.enumerated() {
            for id in [Int64(offset), Int64.max, -3] {
                let message = WireClientMessage.request(id: id, request)
                let bytes = message.encoded()
                #expect(bytes == Self.envelope(message).jsonBytes(), "\(String(decoding: bytes, as: UTF8.self))")
                #expect(try WireClientMessage(decoding: String(decoding: bytes, as: UTF8.self)) == message)
            }
        }
        for control in [WireClientControl.ping, WireClientControl(type: "z\"z")] {
            #expect(WireClientMessage.control(control).encoded() == Self.envelope(.control(control)).jsonBytes())
        }
    }

    /// The full decoder's answer, from the message with a space added where JSON allows one (so it takes no
    /// shortcut).
    private static func decodedInFull(_ text: String) -> WireServerMessage? {
        try? WireServerMessage(decoding: " " + text)
    }

    @Test func anAcknowledgementReadsAsTheFullDecoderReadsIt() throws {
        let ids: [Int64] = [0, 1, 9, 10, 12_345, Int64.max, -1, Int64.min]
        for id in ids {
            let text = String(decoding: WireServerMessage.response(id: id, .okEmpty).encoded(), as: UTF8.self)
            let decoded = try WireServerMessage(decoding: text)
            #expect(decoded == .response(id: id, .okEmpty), "\(text)")
            #expect(Self.decodedInFull(text) == decoded, "\(text)")
        }
    }

    @Test func nearAcknowledgementsAreDecodedInFull() {
        let texts = [
            #"{"t":"d","d":{"r":7,"b":{"s":"ok","d":""}}}"#, #"{"t":"d","d":{"r":7,"b":{"s":"no","d":{}}}}"#,
            #"{"t":"d","d":{"r":07,"b":{"s":"ok","d":{}}}}"#, #"{"t":"d","d":{"r":7.5,"b":{"s":"ok","d":{}}}}"#,
            #"{"t":"d","d":{"r":,"b":{"s":"ok","d":{}}}}"#, #"{"t":"d","d":{"r":1e3,"b":{"s":"ok","d":{}}}}"#,
            #"{"t":"d","d":{"r":99999999999999999999,"b":{"s":"ok","d":{}}}}"#,
            #"{"t":"d","d":{"r":7,"b":{"s":"ok","d":{}}}} "#,
        ]
        for text in texts {
            #expect((try? WireServerMessage(decoding: text)) == Self.decodedInFull(text), "\(text)")
        }
    }

    /// A hostile server's near-acknowledgements: an acknowledgement's bytes with one to three bytes replaced,
    /// inserted or removed, from digits, signs, quotes, braces and spaces; every one decodes as the full decoder
    /// decodes it (or both refuse it).
    @Test func changedAcknowledgementsDecodeAsTheFullDecoderDecodesThem() {
        var random = SeededRandom(seed: 36)
        let alphabet = Array("0123456789-+.e\"{}:, r".utf8)
        for _ in 0..<3_000 {
            let id = Int64.random(in: 0...Int64.max, using: &random) >> Int.random(in: 0..<63, using: &random)
            var bytes = WireServerMessage.response(id: id, .okEmpty).encoded()
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let byte = alphabet[Int.random(in: 0..<alphabet.count, using: &random)]
                let at = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes[at] = byte
                case 1: bytes.insert(byte, at: at)
                default: if bytes.count > 1 { bytes.remove(at: at) }
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            #expect((try? WireServerMessage(decoding: text)) == Self.decodedInFull(text), "\(text)")
        }
    }
}
