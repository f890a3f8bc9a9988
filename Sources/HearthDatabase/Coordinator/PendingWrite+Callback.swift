import HearthCore
import HearthWire

/// A pending write's answer as a callback: for front ends that hand a whole batch's answers on without a task
/// waiting for each write (the single node's write loop, a realtime session's acknowledgements).
extension PendingWrite {
    /// Per shard, the newest index the read view must show before the write is answered: its own entries when it
    /// was logged, else what its refusal (or the first send of a duplicate) was checked against.
    var awaitedIndexes: [Int: UInt64] {
        var indexes: [Int: UInt64] = [:]
        self.awaitIndexes(in: &indexes)
        return indexes
    }

    /// Raises `indexes` to `awaitedIndexes` shard by shard: a turn's writes gather what they wait for in one
    /// dictionary rather than one each.
    func awaitIndexes(in indexes: inout [Int: UInt64]) {
        switch self.state {
        case .committed(let positions, _):
            for position in positions { Self.raise(&indexes[position.shard, default: 0], to: position.index) }
        case .stale(_, _, let through, _), .duplicate(let through):
            for (shard, index) in through { Self.raise(&indexes[shard, default: 0], to: index) }
        }
    }

    /// Raises `index` to `newest` when that is newer: through the dictionary's entry in place, one lookup where a
    /// read and a write of it were two.
    private static func raise(_ index: inout UInt64, to newest: UInt64) {
        index = max(index, newest)
    }

    /// What became of the write, read once the view shows `awaitedIndexes` (and a logged write is committed): as
    /// `outcome()` answers.
    func shownOutcome() -> WriteOutcome {
        switch self.state {
        case .committed(_, let resolved):
            return .committed(resolved)
        case .stale(let namespace, let path, _, let origin):
            if let origin, self.view.hasApplied(origin) { return .committed([]) }
            return .conditionFailed(current: self.view.root(namespace).node(at: path))
        case .duplicate:
            return .committed([])
        }
    }

    /// Calls `body` once with what `outcome()` would return: on the thread that made the write committed or shown
    /// (so `body` must be short and must not block), or at once.
    package func whenDone(_ body: @escaping @Sendable (Result<WriteOutcome, any Error>) -> Void) {
        guard case .committed(let positions, _) = self.state else { return self.whenShown(body) }
        self.log.whenCommitted(positions) { committed in
            if case .failure(let error) = committed { return body(.failure(error)) }
            self.finished?()
            self.whenShown(body)
        }
    }

    /// Calls `body` with `shownOutcome()` once the view shows `awaitedIndexes`.
    private func whenShown(_ body: @escaping @Sendable (Result<WriteOutcome, any Error>) -> Void) {
        self.view.whenShown(self.awaitedIndexes) { end in
            body(end == .shown ? .success(self.shownOutcome()) : .failure(DatabaseClosedError()))
        }
    }
}
