package import HearthCore
package import HearthWire

/// What the connection tells the sync engine: the other half of the seam described on `ServerCommand`.
package enum ServerEvent: Sendable, Equatable {
    /// The handshake finished; `serverTimeOffsetMilliseconds` is the server's clock minus ours, the value of
    /// `.info/serverTimeOffset`.
    case connected(serverTimeOffsetMilliseconds: Int64)
    /// The connection dropped (or `goOffline` was asked for); `.info/connected` turns false.
    case disconnected
    /// The server's data at `path` (a `d` push), for the tagged listen `tag` when given.
    case data(path: Path, WireData, tag: Int64?)
    /// A merge push (`m`): each relative path under `path` now holds its data.
    case merge(path: Path, [WireMergeChange], tag: Int64?)
    /// The server answered the listen: `ok` (the data came before it as pushes) or a failure that cancels it.
    case listenAnswered(ListenKey, WireResponse)
    /// The server revoked listens at `path` (a `c` push): the one with `query`, or every one when `query` is nil.
    case listenRevoked(path: Path, query: QuerySpec?)
    /// The server answered the write.
    case writeAnswered(WriteID, WireResponse)
    /// The server answered a `get` or an onDisconnect request; a request the connection could not send (it is
    /// offline) is answered with a failure (code `disconnected`, Firebase's word for it).
    case requestAnswered(RequestToken, WireResponse)
    /// The server said this connection can never succeed (`s`: an unknown namespace, a disabled database) with
    /// `reason`; the connection stops reconnecting until it is asked to go online again.
    case shutdown(reason: String)
}
