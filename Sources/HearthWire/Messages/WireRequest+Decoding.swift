public import HearthCore

/// Reading a request from its action `a` and body `b`, with the errors every official client can act on.
extension WireRequest {
    /// The actions this server answers, for the message that refuses any other.
    static let knownActions = "q, n, p, m, g, o, om, oc, auth, unauth, s"

    /// Every action name `init(action:body:)` decodes, legacy aliases included; any other is refused.
    public static let actionNames: Set<String> = [
        "q", "l", "n", "u", "p", "m", "g", "o", "om", "oc", "auth", "gauth", "unauth", "appcheck", "unappeck",
        "unappcheck", "s",
    ]

    /// Decodes the request `action` with `body`.
    /// - Throws: `WireProtocolError` `.invalidRequest` for an unknown action or a missing or mistyped field;
    ///   `.invalidData` for a write without its value or a merge whose data is not an object.
    public init(action: String, body: JSONValue) throws(WireProtocolError) {
        guard case .object = body else {
            throw WireProtocolError(.invalidRequest, "The body (b) of a \"\(action)\" request must be an object.")
        }
        switch action {
        case "q", "l":
            let (query, tag) = try Self.query(body)
            self = .listen(path: try Self.path(body), query: query, tag: tag, hash: body["h"]?.stringValue)
        case "n", "u":
            let (query, tag) = try Self.query(body)
            self = .unlisten(path: try Self.path(body), query: query, tag: tag)
        case "p":
            let path = try Self.path(body)
            self = .put(
                path: path, data: try Self.value(body), hash: try Self.hash(body), origin: try Self.origin(body))
        case "m":
            self = .merge(path: try Self.path(body), data: try Self.members(body), origin: try Self.origin(body))
        case "g":
            self = .get(path: try Self.path(body), query: try Self.getQuery(body))
        case "o":
            self = .onDisconnectPut(path: try Self.path(body), data: try Self.value(body))
        case "om":
            self = .onDisconnectMerge(path: try Self.path(body), data: try Self.members(body))
        case "oc":
            self = .onDisconnectCancel(path: try Self.path(body))
        case "auth":
            self = .auth(credential: try Self.credential(body), acting: try Self.acting(body))
        case "gauth":
            self = .googleAuth(credential: try Self.credential(body), acting: try Self.acting(body))
        case "unauth":
            self = .unauth
        case "appcheck":
            self = .appCheck(token: body["token"]?.stringValue)
        case "unappeck", "unappcheck":
            self = .unAppCheck
        case "s":
            self = .stats(counters: body["c"] ?? .object([:]))
        default:
            throw WireProtocolError(
                .invalidRequest,
                "Unknown action \"\(action)\"; this server speaks protocol version 5 (\(Self.knownActions)).")
        }
    }

    /// The body's `p`, as sent.
    private static func path(_ body: JSONValue) throws(WireProtocolError) -> String {
        guard let text = body["p"]?.stringValue else {
            throw WireProtocolError(.invalidRequest, "The request needs its path as a string \"p\".")
        }
        return text
    }

    /// A listen's query and tag: the query is read only with a tag (§1.9.1).
    private static func query(_ body: JSONValue) throws(WireProtocolError) -> (query: QuerySpec?, tag: Int64?) {
        var tag: Int64?
        if let t = body["t"], t != .null {
            guard let value = t.intValue else {
                throw WireProtocolError(.invalidRequest, "A listen's tag (t) must be an integer.")
            }
            tag = value
        }
        guard tag != nil, let q = body["q"], q != .null else { return (nil, tag) }
        do {
            return (try QuerySpec(wire: q), tag)
        } catch {
            throw WireProtocolError(.invalidRequest, error.message)
        }
    }

    /// A get's query (`{}` for a default query).
    private static func getQuery(_ body: JSONValue) throws(WireProtocolError) -> QuerySpec? {
        guard let q = body["q"], q != .null else { return nil }
        do {
            return try QuerySpec(wire: q)
        } catch {
            throw WireProtocolError(.invalidRequest, error.message)
        }
    }

    private static func value(_ body: JSONValue) throws(WireProtocolError) -> JSONValue {
        guard let data = body["d"] else {
            throw WireProtocolError(.invalidData, "A write needs its value as \"d\" (null deletes).")
        }
        return data
    }

    private static func members(_ body: JSONValue) throws(WireProtocolError) -> [JSONKey: JSONValue] {
        guard case .object(let members)? = body["d"] else {
            throw WireProtocolError(.invalidData, "A merge's data (d) must be an object of relative paths to values.")
        }
        return members
    }

    private static func hash(_ body: JSONValue) throws(WireProtocolError) -> String? {
        guard let hash = body["h"], hash != .null else { return nil }
        guard let expected = hash.stringValue else {
            throw WireProtocolError(.invalidRequest, "A put's hash (h) must be a string.")
        }
        return expected
    }

    /// Hearth's `o`, when present (see `WriteOrigin`).
    private static func origin(_ body: JSONValue) throws(WireProtocolError) -> WriteOrigin? {
        guard let origin = body["o"], origin != .null else { return nil }
        return try WriteOrigin(wire: origin)
    }

    /// `authvar` (an object, or null) or `noauth: true`: who an administrator acts as.
    private static func acting(_ body: JSONValue) throws(WireProtocolError) -> WireAuthOverride? {
        if body["noauth"] == .bool(true) { return .unauthenticated }
        switch body["authvar"] {
        case nil: return nil
        case .null?: return .unauthenticated
        case .object(let members)?: return .auth(.object(members))
        default: throw WireProtocolError(.invalidRequest, "authvar must be an object or null.")
        }
    }

    private static func credential(_ body: JSONValue) throws(WireProtocolError) -> String {
        guard let credential = body["cred"]?.stringValue else {
            throw WireProtocolError(.invalidRequest, "An auth request needs the token as a string \"cred\".")
        }
        return credential
    }
}
