public import HearthCore

/// Builds the server's outbound wire messages as JSON bytes (reference §1.3, §1.4, §1.7, §1.8).
///
/// Data goes straight from `Node` into the bytes in export format, never through `JSONValue`, so large pushes cost
/// one pass. Shapes follow what the official clients require: a listen's `ok` carries an object, an error a string,
/// a pong always has the key `d`, and push paths carry no leading slash.
public enum WireMessage {
    /// The handshake control message every socket gets first.
    public static func handshake(timestamp: Int64, host: String, sessionID: String) -> [UInt8] {
        let data = JSONValue.object([
            "ts": .int(timestamp), "v": .string("5"), "h": .string(host), "s": .string(sessionID),
        ])
        return Self.control("h", data.jsonBytes())
    }

    /// The answer to a client's ping.
    public static let pong: [UInt8] = Array(#"{"t":"c","d":{"t":"o","d":null}}"#.utf8)

    /// A control message `{"t":"c","d":{"t":<type>,"d":<data>}}`.
    public static func control(_ type: String, _ data: [UInt8]) -> [UInt8] {
        var bytes = Array(#"{"t":"c","d":{"t":"#.utf8)
        bytes += JSONValue.string(type).jsonBytes()
        bytes += Array(#","d":"#.utf8)
        bytes += data
        bytes += Array("}}".utf8)
        return bytes
    }

    /// A response to request `id`: `{"t":"d","d":{"r":id,"b":{"s":status,"d":data}}}`.
    public static func response(id: Int64, status: String, data: [UInt8]) -> [UInt8] {
        var bytes = Array(#"{"t":"d","d":{"r":"#.utf8)
        bytes += Array(String(id).utf8)
        bytes += Array(#","b":{"s":"#.utf8)
        bytes += JSONValue.string(status).jsonBytes()
        bytes += Array(#","d":"#.utf8)
        bytes += data
        bytes += Array("}}}".utf8)
        return bytes
    }

    /// `ok` with an empty object, the shape listens and writes answer with.
    public static func ok(id: Int64) -> [UInt8] { Self.response(id: id, status: "ok", data: Array("{}".utf8)) }

    /// A refusal: the status is the error's code, `d` its message (always a string).
    public static func failure(id: Int64, _ error: WireProtocolError) -> [UInt8] {
        Self.response(id: id, status: error.code.description, data: JSONValue.string(error.message).jsonBytes())
    }

    /// A `d` push: the value at `path` is now `node` (tagged when `tag` is given).
    public static func setPush(path: Path, node: Node, tag: Int64?) -> [UInt8] {
        Self.push("d", path: path, tag: tag) { $0 += node.jsonBytes(format: .export) }
    }

    /// An `m` push: each relative path under `path` now holds its node (`null` for absent).
    public static func mergePush(path: Path, changes: [(relative: Path, node: Node)], tag: Int64?) -> [UInt8] {
        Self.push("m", path: path, tag: tag) { bytes in
            bytes.append(UInt8(ascii: "{"))
            for (index, change) in changes.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes += JSONValue.string(change.relative.slashless).jsonBytes()
                bytes.append(UInt8(ascii: ":"))
                bytes += change.node.jsonBytes(format: .export)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// A `c` push: the listen at `path` (with `query` when it was tagged) is revoked.
    public static func revokePush(path: Path, query: QuerySpec?) -> [UInt8] {
        var body: [String: JSONValue] = ["p": .string(path.slashless)]
        if let query { body["q"] = .array([query.wireObject]) }
        let message = JSONValue.object(["a": .string("c"), "b": .object(body)])
        return Self.data(message.jsonBytes())
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
