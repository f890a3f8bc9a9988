import HearthDatabase

extension ShardActor {
    /// A run of committed entries this node did not propose, applied in order in one hop onto the shard's actor (a
    /// follower's Ready usually carries several): each exactly as `applyCommitted(_:at:)` applies it.
    func applyCommitted(_ entries: [(ShardEntry, UInt64)]) -> [ShardApplied] {
        entries.map { entry, index in self.applyCommitted(entry, at: index) }
    }
}
