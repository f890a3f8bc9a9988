/// Which Raft group (one per shard, or per group of shards when the configuration sets `groups`) a message or a node
/// belongs to: a node runs many groups over one transport, and every message names its group so the shell can route
/// it.
public struct RaftGroupID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32

    public init(_ rawValue: UInt32) {
        self.rawValue = rawValue
    }

    public var description: String { "group \(self.rawValue)" }

    public static func < (lhs: RaftGroupID, rhs: RaftGroupID) -> Bool { lhs.rawValue < rhs.rawValue }
}
