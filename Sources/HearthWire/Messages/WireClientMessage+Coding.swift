import HearthCore

/// The JSON form of client messages: `{"t":"c","d":{"t":<type>,"d":{}}}` or
/// `{"t":"d","d":{"r":<id>,"a":<action>,"b":{…}}}` (reference §1.3).
extension WireClientMessage {
    /// Decodes one complete message (after framing).
    /// - Throws: `DecodingError.malformed` when it is not JSON or not a wire envelope, naming what is wrong;
    ///   `DecodingError.rejected` when the envelope is sound but its request is not (see `WireRequest`).
    /// - Complexity: O(n) in the message's length.
    public init(decoding message: String) throws(DecodingError) {
        let json: JSONValue
        do {
            json = try JSONReader.parseValue(message)
        } catch {
            throw .malformed(WireProtocolError(.malformedFrame, "The message is not valid JSON: \(error.message)"))
        }
        guard case .object(let envelope) = json, let kind = envelope["t"]?.stringValue, let inner = envelope["d"] else {
            throw .malformed(
                WireProtocolError(.malformedFrame, #"A message must be an object {"t": "c" or "d", "d": {…}}."#))
        }
        switch kind {
        case "c":
            guard let type = inner["t"]?.stringValue else {
                throw .malformed(WireProtocolError(.malformedFrame, #"A control message needs a string type "t"."#))
            }
            self = .control(WireClientControl(type: type))
        case "d":
            guard let id = inner["r"]?.intValue else {
                throw .malformed(
                    WireProtocolError(.malformedFrame, #"A data message needs an integer request id "r"."#))
            }
            guard let action = inner["a"]?.stringValue else {
                throw .malformed(WireProtocolError(.malformedFrame, #"A data message needs a string action "a"."#))
            }
            do {
                self = .request(id: id, try WireRequest(action: action, body: inner["b"] ?? .object([:])))
            } catch {
                throw .rejected(id: id, action: action, error)
            }
        default:
            throw .malformed(
                WireProtocolError(.malformedFrame, #"A message's "t" must be "c" or "d", not "\#(kind)"."#))
        }
    }

    /// The message as compact JSON, ready for framing: members in `Key` order, as `JSONValue.jsonBytes()` writes
    /// them, but the envelope, and a write's body, written in place (every star is a write: building their
    /// dictionaries to sort four fixed keys was a fifth of a load generator's CPU).
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        var writer = JSONWriter()
        switch self {
        case .control(let control):
            Self.append(#"{"d":{"d":{},"t":"#, to: &bytes)
            writer.write(.string(control.type), to: &bytes)
            Self.append(#"},"t":"c"}"#, to: &bytes)
        case .request(let id, let request):
            Self.append(#"{"d":{"a":"#, to: &bytes)
            writer.write(.string(request.action), to: &bytes)
            Self.append(#","b":"#, to: &bytes)
            request.writeBody(into: &bytes, with: &writer)
            Self.append(#","r":"#, to: &bytes)
            JSONWriter.appendDecimal(id, to: &bytes)
            Self.append(#"},"t":"d"}"#, to: &bytes)
        }
        return bytes
    }

    static func append(_ literal: StaticString, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }
}
