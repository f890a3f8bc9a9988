public import HearthCore

/// One message from a client, decoded from its envelope (reference §1.3, §1.4, §1.6).
public enum WireInbound: Sendable, Equatable {
    /// A control message such as the ping `p`, or `n`/`a` during a transport upgrade.
    case control(type: String)
    /// A data request: its id `r`, action `a` and body `b` (`{}` when absent).
    case request(id: Int64, action: String, body: JSONValue)

    /// Decodes one complete message.
    /// - Throws: `WireProtocolError` `.malformedFrame` when it is not JSON or not a wire envelope, naming what is
    ///   wrong; the session closes the socket with that reason.
    public init(message: String) throws(WireProtocolError) {
        let json: JSONValue
        do {
            json = try JSONReader.parseValue(message)
        } catch {
            throw WireProtocolError(.malformedFrame, "The message is not valid JSON: \(error.message)")
        }
        guard case .object(let envelope) = json, let kind = envelope["t"]?.stringValue, let inner = envelope["d"] else {
            throw WireProtocolError(.malformedFrame, #"A message must be an object {"t": "c" or "d", "d": {…}}."#)
        }
        switch kind {
        case "c":
            guard let type = inner["t"]?.stringValue else {
                throw WireProtocolError(.malformedFrame, #"A control message needs a string type "t"."#)
            }
            self = .control(type: type)
        case "d":
            guard let id = inner["r"]?.intValue else {
                throw WireProtocolError(.malformedFrame, #"A data message needs an integer request id "r"."#)
            }
            guard let action = inner["a"]?.stringValue else {
                throw WireProtocolError(.malformedFrame, #"A data message needs a string action "a"."#)
            }
            self = .request(id: id, action: action, body: inner["b"] ?? .object([:]))
        default:
            throw WireProtocolError(.malformedFrame, #"A message's "t" must be "c" or "d", not "\#(kind)"."#)
        }
    }
}
