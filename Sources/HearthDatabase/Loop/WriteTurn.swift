import HearthCore
import HearthSystem

/// The writes one turn of the write loop decided, answered together: one wait for the read view to show them, then
/// every answer, on the thread that showed them (the commit thread), after the listeners heard of them. The view
/// shows only what the log made durable, so the answers never wait on the log's own thread; the log is asked only
/// to report its failure, which answers the turn's writes with its error instead.
struct WriteTurn {
    private var decided: [(write: PendingWrite, batch: WriteBatch, index: Int)] = []

    /// Adds write `index` of `batch`, decided as `write`.
    mutating func add(_ write: PendingWrite, batch: WriteBatch, index: Int) {
        self.decided.append((write, batch, index))
    }

    /// Waits, without a task, for every decided write to be shown (so committed); then answers each. A log that
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
        // Whichever comes first answers: the view showing the writes, or the log failing before it could.
        let isAnswered = Lock(false)
        let answer = { @Sendable (answer: (PendingWrite) -> WriteBatch.Answer) in
            guard
                !isAnswered.withLock({ answered in
                    defer { answered = true }; return answered
                })
            else { return }
            for (write, batch, index) in decided { batch.answer(index, answer(write)) }
        }
        first.view.whenShown(awaited) { end in
            answer { end == .shown ? .success($0.shownOutcome()) : .failure(DatabaseClosedError()) }
        }
        first.log.whenCommitted(positions) { committed in
            if case .failure(let error) = committed { answer { _ in .failure(error) } }
        }
    }
}
