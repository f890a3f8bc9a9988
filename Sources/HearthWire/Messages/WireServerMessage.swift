public import HearthCore

/// One message from the server to a client (reference §1.3, §1.4, §1.7, §1.8): a control message, the response to
/// a request, or a push.
///
/// The server encodes these (`encoded()`, straight from the tree for data, see `WireServerMessage+Encoding.swift`)
/// and a client decodes them (`init(decoding:)`, see `WireServerMessage+Decoding.swift`).
public enum WireServerMessage: Sendable, Equatable {
    /// `h`: the handshake, which must be every connection's first message.
    case handshake(WireHandshake)
    /// `o`: the answer to a client's ping.
    case pong
    /// `n`: end of transmission on the old transport of an upgrade; the client switches to the new one.
    case endOfTransmission
    /// `r`: the client should reconnect to `host`.
    case reset(host: String)
    /// `e`: an error the client logs (it changes no state).
    case serverError(String)
    /// `s`: the connection can never succeed (for example an invalid namespace); the client stops reconnecting.
    case shutdown(reason: String)
    /// The answer to request `id`.
    case response(id: Int64, WireResponse)
    /// `d` push: the value at `path` is now `data` (for the tagged query listen `tag` only, when given).
    case dataPush(path: Path, data: WireData, tag: Int64?)
    /// `m` push: each relative path under `path` now holds its data (`null` for absent).
    case mergePush(path: Path, changes: [WireMergeChange], tag: Int64?)
    /// `c` push: the listen at `path` is revoked; `query` names a tagged listen, `nil` every listen at `path`.
    case listenRevoked(path: Path, query: QuerySpec?)
    /// `ac` push: the credential was revoked (`status` such as `expired_token`); the client reconnects.
    case authRevoked(status: String, reason: String)
}
