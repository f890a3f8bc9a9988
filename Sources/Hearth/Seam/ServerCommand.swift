package import HearthCore
package import HearthWire

/// What the sync engine asks of the server, in the order it asks: the seam between `SyncEngine` (which knows the
/// cache, the pending writes and the listeners) and `ConnectionMachine` (which knows the socket, the request ids and
/// what must be sent again after a reconnect).
///
/// Firebase's JavaScript SDK draws the same line between its `SyncTree` and `PersistentConnection` (its
/// `ServerActions`). Keeping it a value lets tests drive either side alone.
package enum ServerCommand: Sendable, Equatable {
    /// Listen at the key's location. `hash` is what the server may compare with its data to skip sending it; the
    /// engine sends the empty hash, so the server always pushes the location's data before answering (the
    /// connection repeats a listen after a reconnect with the hash it was given, which could no longer say what the
    /// cache holds). The connection repeats the listen after every reconnect until `unlisten`.
    case listen(ListenKey, hash: String)
    /// Stop the listen the engine asked for with the same key.
    case unlisten(ListenKey)
    /// Send a write. The connection keeps it until answered, and sends it again after a reconnect. The exception,
    /// as in Firebase: a compare-and-set put (a transaction's, with a hash) that was sent but not answered when the
    /// connection dropped is answered with a `disconnected` failure instead, since sending it again could apply the
    /// transaction twice.
    case write(WriteID, WireRequest)
    /// Queue, or cancel, an operation the server runs when this client disconnects (`o`, `om`, `oc`).
    case onDisconnect(RequestToken, WireRequest)
    /// Read once from the server (`g`).
    case get(RequestToken, path: Path, query: QuerySpec?)
    /// `purgeOutstandingWrites`: forget every write not yet answered. Those not sent are never sent; answers to
    /// those already sent (which the server may still apply) are passed on and mean nothing to the engine.
    case purgeWrites
}

/// The identity of one server listen: a location, its query (nil for all data) and the tag a filtered query rides
/// with (reference §2.3: only filtered listens are tagged).
package struct ListenKey: Sendable, Hashable {
    package var path: Path
    package var query: QuerySpec?
    package var tag: Int64?

    package init(path: Path, query: QuerySpec?, tag: Int64?) {
        self.path = path
        self.query = query
        self.tag = tag
    }
}

/// The engine's number for one user write, increasing in the order the writes were made (Firebase's write id).
package struct WriteID: Sendable, Hashable, Comparable {
    package var rawValue: Int64

    package init(_ rawValue: Int64) { self.rawValue = rawValue }

    package static func < (lhs: WriteID, rhs: WriteID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The engine's number for a request that is answered once and never resent (`get`, onDisconnect operations).
package struct RequestToken: Sendable, Hashable {
    package var rawValue: Int64

    package init(_ rawValue: Int64) { self.rawValue = rawValue }
}
