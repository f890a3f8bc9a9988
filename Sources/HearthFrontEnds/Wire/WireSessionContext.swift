import HearthCore
import HearthDatabase
import HearthNode
import HearthSystem
import HearthWire

/// What every wire session of a node shares: the database, access control, the log and the limits.
struct WireSessionContext: Sendable {
    let database: any DatabaseAccess
    let access: AccessControl
    let log: Log
    /// Where answered requests are counted (`hearth_wire_requests_total`, latency by action).
    let metrics: Metrics
    /// Largest inbound message, in UTF-8 bytes (`NodeConfiguration.maximumWireMessageBytes`).
    let maximumMessageBytes: Int
    /// Largest backlog of received, unprocessed bytes (`NodeConfiguration.maximumWireQueuedBytes`).
    let maximumQueuedBytes: Int
    /// The most listens one session may hold (`NodeConfiguration.maximumListensPerSession`).
    let maximumListens: Int
    /// The most onDisconnect operations one session may register (`NodeConfiguration.maximumOnDisconnectsPerSession`).
    let maximumOnDisconnects: Int
    /// The most bytes one session's onDisconnect operations may hold
    /// (`NodeConfiguration.maximumOnDisconnectBytesPerSession`).
    let maximumOnDisconnectBytes: Int
}

/// A queued onDisconnect operation (`o` or `om`): the path it was registered at and the writes it will make.
///
/// Server values stay unresolved until the operation runs, so `ServerValue.timestamp` is the disconnect time.
struct WireOnDisconnect: Sendable {
    let path: Path
    let mutations: [Mutation]
    /// What the operation is charged while it waits (`WireSession.heldBytes(path:mutations:)`).
    let bytes: Int
}

/// Identifies a session's listen the way clients do: the path plus the tag of a filtered query.
struct WireListenKey: Hashable, Sendable {
    let path: Path
    let tag: Int64?
}
