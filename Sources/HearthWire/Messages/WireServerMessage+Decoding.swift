import HearthCore

/// Reading server messages, as a client does: every shape `WireServerMessage+Encoding.swift` writes, plus what the
/// reference lists for Firebase's own servers (`r`, `e`, `ac`).
extension WireServerMessage {
    /// Decodes one complete message (after framing).
    ///
    /// Data arrives as `WireData.json`; a merge push's changes come sorted by path.
    /// - Throws: `WireProtocolError` `.malformedFrame` naming what is not a known server message.
    /// - Complexity: O(n) in the message's length.
    public init(decoding message: String) throws(WireProtocolError) {
        var text = message
        if let id = text.withUTF8(Self.acknowledgedID) {
            self = .response(id: id, .okEmpty)
            return
        }
        let json: JSONValue
        do {
            json = try JSONReader.parseValue(message)
        } catch {
            throw Self.malformed("The message is not valid JSON: \(error.message)")
        }
        guard case .object(let envelope) = json, let kind = envelope["t"]?.stringValue, let inner = envelope["d"] else {
            throw Self.malformed(#"A message must be an object {"t": "c" or "d", "d": …}."#)
        }
        switch kind {
        case "c": self = try Self.control(inner)
        case "d": self = try Self.data(inner)
        default: throw Self.malformed(#"A message's "t" must be "c" or "d", not "\#(kind)"."#)
        }
    }

    private static let acknowledgementHead = Array(#"{"t":"d","d":{"r":"#.utf8)
    private static let acknowledgementTail = Array(#","b":{"s":"ok","d":{}}}}"#.utf8)

    /// The id of a write's acknowledgement in the exact bytes the server writes for it (`writeAcknowledgement`):
    /// every write is answered with one, and reading it needs no JSON tree. Nil for anything else (other spacing,
    /// order or data too), which is decoded in full.
    private static func acknowledgedID(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        let head = Self.acknowledgementHead.count
        let tail = Self.acknowledgementTail.count
        guard bytes.count > head + tail, bytes.count <= head + tail + 19,
            bytes.starts(with: Self.acknowledgementHead), bytes.suffix(tail).elementsEqual(Self.acknowledgementTail)
        else { return nil }
        let digits = bytes[head..<(bytes.count - tail)]
        guard let first = digits.first, first != UInt8(ascii: "0") || digits.count == 1 else { return nil }
        var id: Int64 = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            let (times, overflow) = id.multipliedReportingOverflow(by: 10)
            let (sum, carried) = times.addingReportingOverflow(Int64(digit - UInt8(ascii: "0")))
            guard !overflow, !carried else { return nil }
            id = sum
        }
        return id
    }

    private static func control(_ inner: JSONValue) throws(WireProtocolError) -> WireServerMessage {
        guard let type = inner["t"]?.stringValue else {
            throw Self.malformed(#"A control message needs a string type "t"."#)
        }
        let payload = inner["d"] ?? .null
        switch type {
        case "h":
            guard let timestamp = payload["ts"]?.intValue, let version = payload["v"]?.stringValue,
                let host = payload["h"]?.stringValue, let sessionID = payload["s"]?.stringValue
            else {
                throw Self.malformed(#"A handshake needs "ts" (integer) and "v", "h", "s" (strings)."#)
            }
            return .handshake(WireHandshake(timestamp: timestamp, version: version, host: host, sessionID: sessionID))
        case "o": return .pong
        case "n": return .endOfTransmission
        case "r": return .reset(host: try Self.string(payload, "A reset"))
        case "e": return .serverError(try Self.string(payload, "An error message"))
        case "s": return .shutdown(reason: try Self.string(payload, "A shutdown message"))
        default: throw Self.malformed("Unknown control message type \"\(type)\".")
        }
    }

    private static func data(_ inner: JSONValue) throws(WireProtocolError) -> WireServerMessage {
        if let request = inner["r"] {
            guard let id = request.intValue, let body = inner["b"], let status = body["s"]?.stringValue else {
                throw Self.malformed(#"A response needs an integer "r" and a body with a string status "s"."#)
            }
            let data = body["d"] ?? .null
            guard status == "ok" else {
                return .response(
                    id: id, .failure(WireProtocolError(.init(status: status), data.stringValue ?? "")))
            }
            return .response(id: id, .ok(.json(data)))
        }
        guard let action = inner["a"]?.stringValue, let body = inner["b"] else {
            throw Self.malformed(#"A push needs a string action "a" and a body "b"."#)
        }
        switch action {
        case "d":
            return .dataPush(path: try Self.path(body), data: .json(body["d"] ?? .null), tag: try Self.tag(body))
        case "m":
            guard case .object(let members)? = body["d"] else {
                throw Self.malformed("A merge push's data (d) must be an object of relative paths to values.")
            }
            var changes: [WireMergeChange] = []
            for (key, value) in members {
                changes.append(WireMergeChange(relative: try Self.path(key.string), data: .json(value)))
            }
            changes.sort { $0.relative < $1.relative }
            return .mergePush(path: try Self.path(body), changes: changes, tag: try Self.tag(body))
        case "c":
            var query: QuerySpec?
            if case .array(let queries)? = body["q"], let first = queries.first {
                do {
                    query = try QuerySpec(wire: first)
                } catch {
                    throw Self.malformed(error.message)
                }
            }
            return .listenRevoked(path: try Self.path(body), query: query)
        case "ac":
            guard let status = body["s"]?.stringValue else {
                throw Self.malformed(#"An auth revocation needs a string status "s"."#)
            }
            return .authRevoked(status: status, reason: body["d"]?.stringValue ?? "")
        default:
            throw Self.malformed("Unknown push action \"\(action)\".")
        }
    }

    private static func path(_ body: JSONValue) throws(WireProtocolError) -> Path {
        guard let text = body["p"]?.stringValue else {
            throw Self.malformed(#"A push needs its path as a string "p"."#)
        }
        return try Self.path(text)
    }

    private static func path(_ text: String) throws(WireProtocolError) -> Path {
        do {
            return try Path(validating: text)
        } catch {
            throw Self.malformed("Invalid path \"\(text)\": \(error.message)")
        }
    }

    private static func tag(_ body: JSONValue) throws(WireProtocolError) -> Int64? {
        guard let tag = body["t"], tag != .null else { return nil }
        guard let value = tag.intValue else { throw Self.malformed("A push's tag (t) must be an integer.") }
        return value
    }

    private static func string(_ payload: JSONValue, _ what: String) throws(WireProtocolError) -> String {
        guard let text = payload.stringValue else { throw Self.malformed("\(what) carries a string.") }
        return text
    }

    private static func malformed(_ message: String) -> WireProtocolError {
        WireProtocolError(.malformedFrame, message)
    }
}
