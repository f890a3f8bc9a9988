/// The node stopped replicating while a write waited for its commit: the write may or may not have been applied.
package struct NodeStoppingError: Error, Sendable, CustomStringConvertible {
    /// Makes the error; explicit so that the modules above this one can.
    package init() {}

    package var description: String {
        "This node is shutting down; the write may or may not have been applied. Read the data through another node "
            + "before retrying."
    }
}
