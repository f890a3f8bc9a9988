import HearthCore

extension CommitFeed {
    /// A change the read view applies at once; the view adds `increments` to its own values. When `restored` is set,
    /// the update instead replaces those shards' parts of every namespace (`namespace` and `parts` are empty).
    ///
    /// A transaction shown at once with every part's subtrees (a star's usual path, `CommitFeed.showAtOnce`) keeps
    /// its committed entries instead of its fields (`shown`): the view puts the subtrees in place reading them where
    /// they lie in the batch, and only a listener or a query index makes it join the parts. Copying each part's
    /// fields into the update (and its lists of parts and subtrees, two allocations) was a retain and a release of
    /// every field, twice a star, on the commit thread.
    struct Update {
        var namespace: String
        /// The parts' mutations when the update was built from them (`parts` reads the shown entries otherwise).
        private var builtParts: [[ResolvedMutation]]
        private var builtSpineValues: [Path: Node]?
        /// The bare increments' deltas by path; left empty when `subtrees` go with the change (the view then puts
        /// those in place and never reads these).
        var increments: [Path: LeafValue]
        var restored: RestoredParts? = nil
        private var builtSubtrees: [ShardSubtree]?
        /// A transaction's committed entries, one per participant, each carrying its shard's subtrees, shown at once
        /// in their shards' order; nil for an update built from its fields.
        private var shown: ArraySlice<ShardApplied>?
        /// Every subtree the shown entries carry has its node (told as they were shown, so the view need not look).
        private var shownSubtreesHaveNodes = false

        /// An update built from its fields.
        init(
            namespace: String, parts: [[ResolvedMutation]], spineValues: [Path: Node]? = nil,
            increments: [Path: LeafValue], restored: RestoredParts? = nil, subtrees: [ShardSubtree]? = nil
        ) {
            self.namespace = namespace
            self.builtParts = parts
            self.builtSpineValues = spineValues
            self.increments = increments
            self.restored = restored
            self.builtSubtrees = subtrees
        }

        /// The update of a transaction whose committed parts are `entries` (one per participant, in any order), each
        /// carrying its shard's subtrees, shown at once in their shards' order: read from the entries on each use.
        /// - Parameter haveNodes: whether every one of those subtrees has its node.
        init(shown entries: ArraySlice<ShardApplied>, namespace: String, haveNodes: Bool) {
            self.namespace = namespace
            self.builtParts = []
            self.increments = [:]
            self.shown = entries
            self.shownSubtreesHaveNodes = haveNodes
        }

        /// The mutations as the change's entries carried them: one write's (one part, in applying order), or the
        /// shown parts of a transaction, in participant order, with the spine parts restored beside them, which
        /// `mutations` joins.
        var parts: [[ResolvedMutation]] {
            guard let shown else { return self.builtParts }
            var parts: [[ResolvedMutation]] = []
            Self.forEachPart(of: shown) { parts.append($0.change.mutations) }
            return parts
        }

        /// For a transaction, its whole values at the spine paths it sets when its leader attached them (empty
        /// otherwise), and the mark that `parts` are joined (`CommitFeed.merge`); nil for one write.
        var spineValues: [Path: Node]? {
            guard let shown else { return self.builtSpineValues }
            var spineValues: [Path: Node] = [:]
            Self.forEachPart(of: shown) { part in
                if spineValues.isEmpty { spineValues = part.spineValues }
            }
            return spineValues
        }

        /// The shards' subtrees as the change left them (`ShardChange.subtrees`), set when the change is shown in
        /// its shards' order: every earlier entry of each of its shards is shown, no later one arrived, and no
        /// snapshot waits. The view then puts the nodes in place instead of applying `mutations`, and `mutations`
        /// hold the values the shards resolved, which are the view's own; a subtree without its node (a later entry
        /// of its shard's loop turn carries it) has the view apply `mutations` unless that later entry supersedes
        /// it in the same batch. Nil otherwise (and for spine writes).
        var subtrees: [ShardSubtree]? {
            guard let shown else { return self.builtSubtrees }
            var subtrees: [ShardSubtree] = []
            Self.forEachPart(of: shown) { subtrees += $0.change.subtrees ?? [] }
            return subtrees
        }

        /// Whether `subtrees` go with the change (read without joining them).
        var carriesSubtrees: Bool { self.isShown || self.builtSubtrees != nil }

        /// Whether every subtree the change carries has its node; true when it carries none.
        var subtreesHaveNodes: Bool {
            guard !self.isShown else { return self.shownSubtreesHaveNodes }
            return self.builtSubtrees?.allSatisfy { $0.node != nil } ?? true
        }

        /// Whether the update reads a transaction's shown entries (matched, not compared with nil: the comparison
        /// copied the entries' slice, a retain).
        private var isShown: Bool {
            if case .some = self.shown { return true }
            return false
        }

        /// Whether every subtree the change carries satisfies `predicate`, read where each lies; true when it carries
        /// none.
        func allSubtrees(_ predicate: (borrowing ShardSubtree) -> Bool) -> Bool {
            var all = true
            self.forEachSubtree { subtree in
                if all, !predicate(subtree) { all = false }
            }
            return all
        }

        /// Calls `body` with every subtree the change carries, read where each lies (the parts' subtrees lie in
        /// distinct shards, so their order does not matter to the view).
        func forEachSubtree(_ body: (borrowing ShardSubtree) -> Void) {
            guard let shown else {
                guard let subtrees = self.builtSubtrees else { return }
                for index in subtrees.indices { body(subtrees[index]) }
                return
            }
            for position in shown.indices {
                guard let subtrees = Self.subtrees(of: shown[position]) else { continue }
                for index in subtrees.indices { body(subtrees[index]) }
            }
        }

        /// The mutations in the order they apply: one write's as they are; a transaction's parts joined and ordered
        /// on each use (`CommitFeed.merge`), so the view asks for them only when it applies them itself, or a query
        /// index or a listener needs them (a star shown in its shards' order that nobody hears is never sorted).
        var mutations: [ResolvedMutation] {
            guard let spineValues else { return self.builtParts.first ?? [] }
            return CommitFeed.merge(self.parts, spineValues: spineValues)
        }

        /// Every path the change writes, in no particular order, read from the parts where they lie (a shown
        /// entry's mutations are read out of it only as the paths are read).
        var paths: some Collection<Path> {
            PartMutations(built: self.builtParts, shown: self.shown).lazy.joined().map(\.path)
        }

        /// The parts' mutation lists, for `paths`: the built ones, or each shown entry's read from it on access. Holds
        /// the two fields alone (holding the update copied every field of it).
        private struct PartMutations: RandomAccessCollection {
            let built: [[ResolvedMutation]]
            let shown: ArraySlice<ShardApplied>?
            var startIndex: Int { 0 }
            var endIndex: Int { self.shown?.count ?? self.built.count }
            subscript(position: Int) -> [ResolvedMutation] {
                guard let shown = self.shown else { return self.built[position] }
                guard case .finished(_, _, let part?) = shown[shown.startIndex + position].effect else { return [] }
                return part.change.mutations
            }
        }

        /// The committed part each of `entries` carries, in participant order (the first part's participants).
        private static func forEachPart(
            of entries: ArraySlice<ShardApplied>, _ body: (ShardTransactionPart) -> Void
        ) {
            guard let first = entries.first, case .finished(_, _, let lead?) = first.effect else { return }
            for participant in lead.participants {
                guard let position = entries.firstIndex(where: { $0.shard == participant }),
                    case .finished(_, _, let part?) = entries[position].effect
                else { continue }
                body(part)
            }
        }

        /// The subtrees of the committed part `applied` carries, read in place; nil for any other entry.
        private static func subtrees(of applied: ShardApplied) -> [ShardSubtree]? {
            guard case .finished(_, _, let part?) = applied.effect else { return nil }
            return part.change.subtrees
        }
    }
}
