/// A cluster node cannot start as asked; the message says what to change.
public struct ClusterNodeError: Error, Sendable, CustomStringConvertible {
    public let description: String
    package init(_ description: String) { self.description = description }
}
