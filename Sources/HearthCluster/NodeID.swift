/// The name of a cluster member as the configuration gives it (`"n1"`), used by membership, Raft and the peer
/// transport alike. Ordered by name so that anything iterating members does so in the same order on every node.
public struct NodeID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let name: String

    public init(_ name: String) {
        self.name = name
    }

    public var description: String { self.name }

    public static func < (lhs: NodeID, rhs: NodeID) -> Bool { lhs.name < rhs.name }
}

extension NodeID: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {
        self.init(value)
    }
}
