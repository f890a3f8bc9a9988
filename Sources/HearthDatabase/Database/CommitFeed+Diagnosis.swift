/// What the feed holds back, for a stuck wait's diagnosis.
extension CommitFeed {
    /// Per shard with anything queued: its first held entry and why it can be held (the kind of entry and, for a
    /// transaction, the participants whose parts are missing), plus how many entries wait behind it.
    var heldEntries: [Int: String] {
        var held: [Int: String] = [:]
        for (shard, queue) in self.queues.enumerated() {
            guard let first = queue.first else { continue }
            held[shard] = "\(first.index) \(self.describe(first.effect)), \(queue.count - 1) behind"
        }
        for (shard, restore) in self.restores { held[shard, default: ""] += " snapshot waiting from \(restore.base)" }
        return held
    }

    private func describe(_ effect: ShardApplied.Effect) -> String {
        switch effect {
        case .write: return "write"
        case .prepared(let transaction, _): return "prepare of \(transaction)"
        case .finished(let transaction, _, nil): return "finish of \(transaction) (nothing to show)"
        case .finished(let transaction, _, let part?):
            let arrived = Set((self.parts[transaction] ?? [:]).keys)
            let missing = part.participants.filter { !arrived.contains($0) }
            return "part of \(transaction), parts missing from \(missing)"
        case .bookkeeping: return "bookkeeping"
        }
    }
}
