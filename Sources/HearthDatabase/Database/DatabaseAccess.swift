public import HearthCore
public import HearthWire

/// What the front ends (REST, SSE, the realtime protocol) need of a node's database, whether it is a single node
/// (`Database`, over the local write-ahead log) or a member of a cluster (`ReplicatedDatabase`, over a Raft group
/// per shard): the read view, the coordinator every write goes through, the server clock, and whether storage has
/// failed.
public protocol DatabaseAccess: Sendable {
    /// The read view: roots, listeners, and waiting for a shard's entries to be shown.
    var view: DatabaseView { get }
    /// Routes every write to its shards and runs two-phase commit across them.
    var coordinator: Coordinator { get }
    /// The clock behind `ServerValue.timestamp` and push IDs.
    var clock: ServerClock { get }
    /// Whether the node can no longer make writes durable.
    var hasFailed: Bool { get }
    /// Why the node cannot serve every shard right now, or nil when it can (what `/.ready` answers).
    var notReadyReason: String? { get }
    /// Returns once the read view reflects every write acknowledged anywhere before the call that touches `path` of
    /// `namespace`; a front end calls it before it serves a read there (a GET, a realtime get, a listen's or an SSE
    /// stream's first data). Nothing to wait for on a single node, whose view shows a write before it is
    /// acknowledged; a cluster node waits for the read index of each shard the path touches (docs/consistency.md).
    /// - Throws: an error the front ends answer as unavailable (REST 503) when that cannot be had in time: never a
    ///   possibly stale read.
    func readBarrier(namespace: String, path: Path) async throws
    /// Returns once the node takes its clients' requests; a front end calls it before it handles one. A single node
    /// serves at once (it recovered before its port opened); a cluster member that has just started waits until it
    /// has caught up with its shards' leaders (what `/.ready` answers), at most `--catch-up-hold-seconds`. Nothing is
    /// refused: a held request only starts later.
    func waitUntilServing() async
}

extension DatabaseAccess {
    /// A single node serves at once.
    public func waitUntilServing() async {}

    /// The current value of a namespace root.
    public func root(_ namespace: String) -> Node { self.view.root(namespace) }

    /// Milliseconds since the Unix epoch, the clock behind `ServerValue.timestamp` and push IDs.
    public func now() -> Int64 { self.clock.now() }

    /// A new push ID from the server clock, strictly greater than every earlier one from this node.
    public func nextPushID() -> String { self.clock.nextPushID() }

    /// Applies `mutations` atomically if every one of `conditions` holds; see `Coordinator.write`.
    public func write(namespace: String, mutations: [Mutation], conditions: [WriteCondition] = []) async throws
        -> WriteOutcome
    {
        try await self.coordinator.write(
            namespace: namespace, mutations: mutations, conditions: conditions, now: self.now())
    }

    /// Orders a write without waiting for durability; see `Coordinator.submit`.
    public func submit(namespace: String, mutations: [Mutation], conditions: [WriteCondition] = []) async throws
        -> PendingWrite
    {
        try await self.coordinator.submit(
            namespace: namespace, mutations: mutations, conditions: conditions, now: self.now())
    }
}
