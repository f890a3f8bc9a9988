import HearthCore

/// The writes one turn of the write loop decided, answered together: one wait for the log to make the turn's records
/// durable and one for the read view to show them, then every answer, on the thread that showed them (the commit
/// thread), after the listeners heard of them.
struct WriteTurn {
    private var decided: [(write: PendingWrite, batch: WriteBatch, index: Int)] = []

    /// Adds write `index` of `batch`, decided as `write`.
    mutating func add(_ write: PendingWrite, batch: WriteBatch, index: Int) {
        self.decided.append((write, batch, index))
    }

    /// Waits, without a task, for every decided write to be committed and shown; then answers each. A log that
    /// fails first fails them all with its error.
    func finish() {
        guard let first = self.decided.first?.write else { return }
        var positions: [ShardLogPosition] = []
        var indexes: [Int: UInt64] = [:]
        for (write, _, _) in self.decided {
            if case .committed(let logged, _) = write.state { positions += logged }
            indexes.merge(write.awaitedIndexes, uniquingKeysWith: max)
        }
        let (decided, awaited) = (self.decided, indexes)
        first.log.whenCommitted(positions) { committed in
            if case .failure(let error) = committed {
                for (_, batch, index) in decided { batch.answer(index, .failure(error)) }
                return
            }
            first.view.whenShown(awaited) { end in
                for (write, batch, index) in decided {
                    batch.answer(
                        index, end == .shown ? .success(write.shownOutcome()) : .failure(DatabaseClosedError()))
                }
            }
        }
    }
}
