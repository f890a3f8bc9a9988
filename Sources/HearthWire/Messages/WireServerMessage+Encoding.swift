import HearthCore

/// Writing server messages as JSON bytes, in the shapes the official clients require: a pong always has the key
/// `d`, push paths carry no leading slash, the root is `""`, and a revoked tagged listen names its query as an array.
extension WireServerMessage {
    /// Appends the message as compact JSON (`encoded()`) to `bytes`: a response, every write's answer, is written
    /// in place, so a transport can frame it where it is written.
    public func encode(into bytes: inout [UInt8]) {
        guard case .response(let id, let response) = self else { return bytes += self.encoded() }
        Self.response(id: id, response, into: &bytes)
    }

    /// The message as compact JSON, ready for framing.
    /// - Complexity: O(n) in the size of the data carried.
    public func encoded() -> [UInt8] {
        switch self {
        case .handshake(let handshake):
            let data = JSONValue.object([
                "ts": .int(handshake.timestamp), "v": .string(handshake.version), "h": .string(handshake.host),
                "s": .string(handshake.sessionID),
            ])
            return Self.control("h", data.jsonBytes())
        case .pong:
            return Self.control("o", Array("null".utf8))
        case .endOfTransmission:
            return Self.control("n", Array("{}".utf8))
        case .reset(let host):
            return Self.control("r", JSONValue.string(host).jsonBytes())
        case .serverError(let text):
            return Self.control("e", JSONValue.string(text).jsonBytes())
        case .shutdown(let reason):
            return Self.control("s", JSONValue.string(reason).jsonBytes())
        case .response(let id, let response):
            var bytes: [UInt8] = []
            Self.response(id: id, response, into: &bytes)
            return bytes
        case .dataPush(let path, let data, let tag):
            return Self.push("d", path: path, tag: tag) { data.write(into: &$0) }
        case .mergePush(let path, let changes, let tag):
            return Self.push("m", path: path, tag: tag) { bytes in
                bytes.append(UInt8(ascii: "{"))
                for (index, change) in changes.enumerated() {
                    if index > 0 { bytes.append(UInt8(ascii: ",")) }
                    bytes += JSONValue.string(change.relative.slashless).jsonBytes()
                    bytes.append(UInt8(ascii: ":"))
                    change.data.write(into: &bytes)
                }
                bytes.append(UInt8(ascii: "}"))
            }
        case .listenRevoked(let path, let query):
            var body: [JSONKey: JSONValue] = ["p": .string(path.slashless)]
            if let query { body["q"] = .array([query.wireObject]) }
            return Self.data(JSONValue.object(["a": .string("c"), "b": .object(body)]).jsonBytes())
        case .authRevoked(let status, let reason):
            let body = JSONValue.object(["s": .string(status), "d": .string(reason)])
            return Self.data(JSONValue.object(["a": .string("ac"), "b": body]).jsonBytes())
        }
    }

    /// `{"t":"c","d":{"t":<type>,"d":<data>}}`.
    private static func control(_ type: String, _ data: [UInt8]) -> [UInt8] {
        var bytes = Array(#"{"t":"c","d":{"t":"#.utf8)
        bytes += JSONValue.string(type).jsonBytes()
        bytes += Array(#","d":"#.utf8)
        bytes += data
        bytes += Array("}}".utf8)
        return bytes
    }

    /// The room a response starts with: a write's acknowledgement with any request id fits.
    private static let responseCapacity = 64

    /// Appends `{"t":"d","d":{"r":id,"b":{"s":status,"d":data}}}` to `bytes`.
    private static func response(id: Int64, _ response: WireResponse, into bytes: inout [UInt8]) {
        // Appended in place into room made first: every write's answer is one of these, and a temporary array per
        // piece cost an allocation each.
        bytes.reserveCapacity(bytes.count + Self.responseCapacity)
        Self.append(#"{"t":"d","d":{"r":"#, to: &bytes)
        bytes.append(contentsOf: String(id).utf8)
        Self.append(#","b":{"s":"#, to: &bytes)
        switch response {
        case .ok(let data):
            Self.append(#""ok","d":"#, to: &bytes)
            data.write(into: &bytes)
        case .failure(let error):
            bytes += JSONValue.string(error.code.description).jsonBytes()
            Self.append(#","d":"#, to: &bytes)
            bytes += JSONValue.string(error.message).jsonBytes()
        }
        Self.append("}}}", to: &bytes)
    }

    /// The most bytes an acknowledgement takes (`writeAcknowledgement`): its fixed pieces and the 20 characters of
    /// the longest id, `Int64.min`.
    public static let maximumAcknowledgementBytes =
        Self.acknowledgementHead.utf8CodeUnitCount + 20 + Self.acknowledgementTail.utf8CodeUnitCount

    private static let acknowledgementHead: StaticString = #"{"t":"d","d":{"r":"#
    private static let acknowledgementTail: StaticString = #","b":{"s":"ok","d":{}}}}"#

    /// Stores the acknowledgement of write `id` — `.response(id: id, .okEmpty)` encoded, the same bytes — at the
    /// start of `buffer` (at least `maximumAcknowledgementBytes` long) and returns how many bytes it stored: its two
    /// fixed pieces around the id's digits, with no message made, copied, switched on and destroyed for it, and no
    /// array grown (every committed write's answer is one).
    public static func writeAcknowledgement(id: Int64, to buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        precondition(buffer.count >= Self.maximumAcknowledgementBytes, "no room for an acknowledgement")
        var end = Self.store(Self.acknowledgementHead, in: buffer, at: 0)
        if id < 0 {
            buffer[end] = UInt8(ascii: "-")
            end += 1
        }
        // The digits of the magnitude (`Int64.min`'s too), counted first, then stored from the last.
        var magnitude = id.magnitude
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        end += digits
        for position in stride(from: end - 1, through: end - digits, by: -1) {
            buffer[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        }
        return Self.store(Self.acknowledgementTail, in: buffer, at: end)
    }

    /// Stores `literal`'s UTF-8 bytes in `buffer` from `start`; returns where they end.
    private static func store(_ literal: StaticString, in buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int)
        -> Int
    {
        literal.withUTF8Buffer { bytes in
            _ = UnsafeMutableBufferPointer(rebasing: buffer[start...]).initialize(fromContentsOf: bytes)
            return start + bytes.count
        }
    }

    /// Appends a literal's UTF-8 bytes from where they lie: a `String` literal's view went through the bridged
    /// object's retain and release around each of the several appends of every acknowledgement.
    private static func append(_ literal: StaticString, to bytes: inout [UInt8]) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private static func push(_ action: String, path: Path, tag: Int64?, data: (inout [UInt8]) -> Void) -> [UInt8] {
        var bytes = Array(#"{"t":"d","d":{"a":"#.utf8)
        bytes += JSONValue.string(action).jsonBytes()
        bytes += Array(#","b":{"p":"#.utf8)
        bytes += JSONValue.string(path.slashless).jsonBytes()
        bytes += Array(#","d":"#.utf8)
        data(&bytes)
        if let tag { bytes += Array(#","t":"#.utf8) + Array(String(tag).utf8) }
        bytes += Array("}}}".utf8)
        return bytes
    }

    private static func data(_ payload: [UInt8]) -> [UInt8] {
        Array(#"{"t":"d","d":"#.utf8) + payload + [UInt8(ascii: "}")]
    }
}
