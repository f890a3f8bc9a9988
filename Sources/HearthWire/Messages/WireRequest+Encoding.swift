public import HearthCore

/// Writing a request as its action `a` and body `b`, the way the official SDKs send it.
extension WireRequest {
    /// The action `a` (the current name; legacy aliases decode but are never sent).
    public var action: String {
        switch self {
        case .listen: "q"
        case .unlisten: "n"
        case .put: "p"
        case .merge: "m"
        case .get: "g"
        case .onDisconnectPut: "o"
        case .onDisconnectMerge: "om"
        case .onDisconnectCancel: "oc"
        case .auth: "auth"
        case .googleAuth: "gauth"
        case .unauth: "unauth"
        case .appCheck: "appcheck"
        case .unAppCheck: "unappeck"
        case .stats: "s"
        }
    }

    /// The body `b`. A query is sent only with its tag, as the SDKs send it, and decoding reads it only then.
    public var body: JSONValue {
        var members: [JSONKey: JSONValue] = [:]
        switch self {
        case .listen(let path, let query, let tag, let hash):
            members["p"] = .string(path)
            members.merge(Self.tagged(query: query, tag: tag)) { $1 }
            if let hash { members["h"] = .string(hash) }
        case .unlisten(let path, let query, let tag):
            members["p"] = .string(path)
            members.merge(Self.tagged(query: query, tag: tag)) { $1 }
        case .put(let path, let data, let hash, let origin):
            members = ["p": .string(path), "d": data]
            if let hash { members["h"] = .string(hash) }
            if let origin { members["o"] = origin.wireValue }
        case .merge(let path, let data, let origin):
            members = ["p": .string(path), "d": .object(data)]
            if let origin { members["o"] = origin.wireValue }
        case .onDisconnectMerge(let path, let data):
            members = ["p": .string(path), "d": .object(data)]
        case .get(let path, let query):
            members["p"] = .string(path)
            if let query { members["q"] = query.wireObject }
        case .onDisconnectPut(let path, let data):
            members = ["p": .string(path), "d": data]
        case .onDisconnectCancel(let path):
            members = ["p": .string(path), "d": .null]
        case .auth(let credential, let acting), .googleAuth(let credential, let acting):
            members["cred"] = .string(credential)
            switch acting {
            case .auth(let authvar)?: members["authvar"] = authvar
            case .unauthenticated?: members["noauth"] = .bool(true)
            case nil: break
            }
        case .appCheck(let token):
            if let token { members["token"] = .string(token) }
        case .stats(let counters):
            members["c"] = counters
        case .unauth, .unAppCheck:
            break
        }
        return .object(members)
    }

    private static func tagged(query: QuerySpec?, tag: Int64?) -> [JSONKey: JSONValue] {
        guard let tag else { return [:] }
        var members: [JSONKey: JSONValue] = ["t": .int(tag)]
        if let query { members["q"] = query.wireObject }
        return members
    }
}

extension WireRequest {
    /// Appends the body `b` as `body.jsonBytes()` would write it: a put's or merge's members (`d`, `h`, `o`, `p`, in
    /// `Key` order) in place, with no dictionary built for them; other requests through `body`.
    func writeBody(into bytes: inout [UInt8], with writer: inout JSONWriter) {
        switch self {
        case .put(let path, let data, let hash, let origin):
            Self.writeWrite(path: path, data: data, hash: hash, origin: origin, into: &bytes, with: &writer)
        case .merge(let path, let data, let origin):
            Self.writeWrite(path: path, data: .object(data), hash: nil, origin: origin, into: &bytes, with: &writer)
        default:
            writer.write(self.body, to: &bytes)
        }
    }

    private static func writeWrite(
        path: String, data: JSONValue, hash: String?, origin: WriteOrigin?, into bytes: inout [UInt8],
        with writer: inout JSONWriter
    ) {
        WireClientMessage.append(#"{"d":"#, to: &bytes)
        writer.write(data, to: &bytes)
        if let hash {
            WireClientMessage.append(#","h":"#, to: &bytes)
            writer.write(.string(hash), to: &bytes)
        }
        if let origin {
            WireClientMessage.append(#","o":{"a":"#, to: &bytes)
            JSONWriter.appendDecimal(Int64(clamping: origin.settledBelow), to: &bytes)
            WireClientMessage.append(#","c":"#, to: &bytes)
            writer.write(.string(origin.client), to: &bytes)
            WireClientMessage.append(#","s":"#, to: &bytes)
            JSONWriter.appendDecimal(Int64(clamping: origin.sequence), to: &bytes)
            WireClientMessage.append("}", to: &bytes)
        }
        WireClientMessage.append(#","p":"#, to: &bytes)
        writer.write(.string(path), to: &bytes)
        WireClientMessage.append("}", to: &bytes)
    }
}
