import HearthDatabase

extension ShardActor {
    /// A run of committed entries this node did not propose, applied in order in one hop onto the shard's actor (a
    /// follower's Ready usually carries several): each exactly as `applyCommitted(_:at:)` applies it, up to the
    /// first whose index does not follow the one before it.
    /// - Returns: what the entries before that one applied, and why that one was not (nil when every one was).
    func applyCommitted(_ entries: [(ShardEntry, UInt64)]) -> (applied: [ShardApplied], gap: ShardEntryGapError?) {
        var applied: [ShardApplied] = []
        applied.reserveCapacity(entries.count)
        for (entry, index) in entries {
            do {
                applied.append(try self.applyCommitted(entry, at: index))
            } catch {
                return (applied, error)
            }
        }
        return (applied, nil)
    }
}
