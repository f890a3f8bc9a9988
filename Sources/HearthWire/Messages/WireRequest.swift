public import HearthCore

/// A client's data request (reference §1.6), typed: what each action carries, before the server checks paths and
/// values against `WriteRules`.
///
/// Paths stay as the client wrote them (`/a/b`, `a/b` or `/`): whether one is valid, and whether it may end in
/// `.priority`, is a write rule, checked where the request is carried out. Values are the JSON as sent. Decoding
/// and encoding live in `WireRequest+Decoding.swift` and `WireRequest+Encoding.swift`.
public enum WireRequest: Sendable, Hashable {
    /// `q` (legacy `l`): listen at `path`. Only a tagged listen is filtered: the query rides with a tag, and an
    /// untagged listen always gets all data (§1.9.1, §2.3). `hash` is the client's hash of what it holds.
    case listen(path: String, query: QuerySpec?, tag: Int64?, hash: String?)
    /// `n` (legacy `u`): stop the listen at `path` with `tag` (and its query).
    case unlisten(path: String, query: QuerySpec?, tag: Int64?)
    /// `p`: set `data` at `path` (which may end in `.priority`); with `hash`, only if the current value still has
    /// that hash (compare-and-set, used by transactions). `origin` (Hearth's `o`) names the write so that it
    /// applies once.
    case put(path: String, data: JSONValue, hash: String?, origin: WriteOrigin? = nil)
    /// `m`: a multi-path update: each key of `data` is a path relative to `path`.
    case merge(path: String, data: [JSONKey: JSONValue], origin: WriteOrigin? = nil)
    /// `g`: read `path` once, filtered by `query`.
    case get(path: String, query: QuerySpec?)
    /// `o`: set `data` at `path` when this client disconnects.
    case onDisconnectPut(path: String, data: JSONValue)
    /// `om`: apply the update `data` at `path` when this client disconnects.
    case onDisconnectMerge(path: String, data: [JSONKey: JSONValue])
    /// `oc`: cancel the queued disconnect operations at `path` and below.
    case onDisconnectCancel(path: String)
    /// `auth`: authenticate with a JWT (ID token, custom token, emulator token); an administrator's credential may
    /// name who to act as (`authvar`, `noauth`).
    case auth(credential: String, acting: WireAuthOverride? = nil)
    /// `gauth`: authenticate with a Google access token, a database secret or the emulator's `owner`.
    case googleAuth(credential: String, acting: WireAuthOverride? = nil)
    /// `unauth`: drop the credential.
    case unauth
    /// `appcheck`: an App Check token.
    case appCheck(token: String?)
    /// `unappeck` (the JavaScript spelling) or `unappcheck`: drop the App Check token.
    case unAppCheck
    /// `s`: usage counters such as `{"sdk.js.11-0-0": 1}`.
    case stats(counters: JSONValue)
}

/// Who an administrator's session acts as, as firebase-admin's `databaseAuthVariableOverride` asks: the rules see
/// `auth` as the given object (`authvar`), or as unauthenticated (`noauth: true`).
public enum WireAuthOverride: Sendable, Hashable {
    case auth(JSONValue)
    case unauthenticated
}
