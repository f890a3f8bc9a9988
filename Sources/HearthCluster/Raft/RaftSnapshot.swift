/// Where a snapshot cuts the log: the last index and term it covers and the replica set at that index. A node keeps
/// only the log after its latest snapshot.
public struct RaftSnapshotMetadata: Sendable, Equatable {
    public var index: UInt64
    public var term: UInt64
    public var membership: RaftMembership

    public init(index: UInt64, term: UInt64, membership: RaftMembership) {
        self.index = index
        self.term = term
        self.membership = membership
    }
}

/// A snapshot as it travels to a lagging follower: the cut plus the application's state at that index, as bytes
/// the shell produces and installs (Raft never looks inside them).
public struct RaftSnapshot: Sendable, Equatable {
    public var metadata: RaftSnapshotMetadata
    public var data: [UInt8]

    public init(metadata: RaftSnapshotMetadata, data: [UInt8]) {
        self.metadata = metadata
        self.data = data
    }
}
