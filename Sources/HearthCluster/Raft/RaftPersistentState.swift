/// Everything a node persisted, handed back to `RaftNode.init` after a restart: the hard state, the latest
/// snapshot's cut (the application restores its own bytes), and the log entries after that snapshot.
public struct RaftPersistentState: Sendable, Equatable {
    public var hardState: RaftHardState
    public var snapshot: RaftSnapshotMetadata
    /// Entries `snapshot.index + 1 ...`, contiguous.
    public var entries: [RaftEntry]

    public init(hardState: RaftHardState, snapshot: RaftSnapshotMetadata, entries: [RaftEntry]) {
        self.hardState = hardState
        self.snapshot = snapshot
        self.entries = entries
    }

    /// A new group whose first members are `voters`: every founding replica starts from this same state.
    public static func bootstrap(voters: some Sequence<NodeID>) -> RaftPersistentState {
        RaftPersistentState(
            hardState: RaftHardState(),
            snapshot: RaftSnapshotMetadata(index: 0, term: 0, membership: RaftMembership(voters: voters)),
            entries: []
        )
    }

    /// A replica added to a running group: it knows nothing and waits for the leader's log or snapshot.
    public static var joining: RaftPersistentState { .bootstrap(voters: []) }
}
