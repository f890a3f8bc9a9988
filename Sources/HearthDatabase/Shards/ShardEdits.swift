public import HearthCore

/// A write's mutations as a leader resolves them just before it applies the write (`ShardStateMachine.resolving`):
/// every server value resolved against the tree as it is before the write, except the bare increments that cannot
/// overflow (`Node.mayHoldHugeNumbers` down, a delta below `Mutation.commutingDeltaLimit`), each left as a set of its
/// delta at `increments` for the apply to add to the number it finds in its one descent (`Node.apply(_:incrementing:)`):
/// reading that number first walked the same path from the root once more. Once applied, `edits` are the mutations
/// resolved whole and `increments` is empty.
public struct ShardEdits: Sendable, Equatable {
    public var edits: [ResolvedMutation]
    public var increments = TreeEdit.Increments()

    public init(edits: [ResolvedMutation], increments: TreeEdit.Increments = TreeEdit.Increments()) {
        self.edits = edits
        self.increments = increments
    }

    /// Applies the edits to `tree` in one descent, resolving the increments left to it (`edits` then holds them
    /// resolved, and `increments` none).
    mutating func apply(to tree: inout Node) {
        tree.apply(&self.edits, incrementing: self.increments)
        self.increments = TreeEdit.Increments()
    }
}
