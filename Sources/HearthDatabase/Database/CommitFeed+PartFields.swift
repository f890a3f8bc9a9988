import HearthCore

extension CommitFeed {
    /// What a view update takes from a transaction's committed part (`CommitFeed.update(parts:…)`), each field
    /// copied once. Bound whole while anything opaque ran (an array's growth, the builder's closure), a part was
    /// copied out of its entry first: a retain and a release of every field, several times a star.
    struct PartFields {
        var namespace: String
        var mutations: [ResolvedMutation]
        var subtrees: [ShardSubtree]?
        var spineValues: [Path: Node]

        /// The fields of `part`.
        init(_ part: ShardTransactionPart) {
            self.namespace = part.change.namespace
            self.mutations = part.change.mutations
            self.subtrees = part.change.subtrees
            self.spineValues = part.spineValues
        }
    }

    /// The fields of the committed part `applied` carries; nil for any other entry. Nothing else runs while the part
    /// is bound, so it is read where it lies.
    static func partFields(of applied: ShardApplied) -> PartFields? {
        guard case .finished(_, _, let part?) = applied.effect else { return nil }
        return PartFields(part)
    }

    /// The bare increments of `parts`, the first part's delta for a path two of them name: read only by a view that
    /// applies a transaction's mutations itself (`CommitFeed.update(parts:…)`).
    static func increments(of parts: [ShardTransactionPart]) -> [Path: LeafValue] {
        var increments: [Path: LeafValue] = [:]
        for part in parts { increments.merge(part.change.increments) { first, _ in first } }
        return increments
    }
}
