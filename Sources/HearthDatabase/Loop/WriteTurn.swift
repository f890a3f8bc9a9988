import HearthCore
import HearthNet
import HearthSystem

/// The writes one turn of the write loop decided, answered together: one wait for the read view to show them, then
/// every answer, on the thread that showed them (the commit thread), after the listeners heard of them. The view
/// shows only what the log made durable, so the answers never wait on the log's own thread; the log is asked only
/// to report its failure, which answers the turn's writes with its error instead.
struct WriteTurn {
    private var decided: [(write: PendingWrite, batch: WriteBatch, index: Int)] = []
    /// Per shard, the newest entry a decided write waits for the view to show.
    private var awaited: [Int: UInt64] = [:]
    /// Where the decided writes were logged.
    private var positions: [ShardLogPosition] = []

    /// Adds write `index` of `batch`, decided as `write` (taken, not copied: the turn keeps the decider's value).
    mutating func add(_ write: consuming PendingWrite, batch: WriteBatch, index: Int) {
        write.awaitIndexes(in: &self.awaited)
        if case .committed(let logged, _) = write.state { self.positions += logged }
        self.decided.append((consume write, batch, index))
    }

    /// Waits, without a task, for every decided write to be shown (so committed); then answers each. A log that
    /// fails first fails them all with its error. The decided writes go to whichever answers.
    mutating func finish() {
        guard !self.decided.isEmpty else { return }
        let (view, log) = (self.decided[0].write.view, self.decided[0].write.log)
        // Whichever comes first answers: the view showing the writes, or the log failing before it could. It takes
        // the writes out whole, so it owns the only reference to them and answers each in place (reading them from
        // a shared array copied each one, through the runtime's generic tuple witnesses, for every answer). The
        // answers leave in one batch: each reactor is woken once for the turn's acknowledgements and replies.
        var decided: [(write: PendingWrite, batch: WriteBatch, index: Int)] = []
        swap(&decided, &self.decided)
        let waiting = Lock(Optional(decided))
        let answer = { @Sendable (answer: (PendingWrite) -> WriteBatch.Answer) in
            guard var decided = waiting.withLock({ $0.take() }) else { return }
            // Answered in the turn's order, each where it lies, in place (read through the subscript, each was
            // copied, a retain of every field, through the runtime's generic tuple witnesses), not moved into a
            // list of the answered (an array per turn, past a kilobyte at a few dozen writes: each such allocation
            // first consolidates the allocator's fast bins). The writes and their batches stay until the batch's end
            // has handed the answers to the reactors: freed as they were answered (a batch goes with its last
            // write), they would hold every answer of the turn back by the time their frees take.
            FlushBatch.collecting {
                for position in decided.indices { Self.answer(&decided[position], answer) }
            }
            withExtendedLifetime(decided) {}
        }
        view.whenShown(self.awaited) { end in
            answer { end == .shown ? .success($0.shownOutcome()) : .failure(DatabaseClosedError()) }
        }
        log.whenCommitted(self.positions) { committed in
            if case .failure(let error) = committed { answer { _ in .failure(error) } }
        }
    }

    /// Gives `decision`'s batch the answer `answer` makes of its write, read in place: an exclusive access to the
    /// turn's slot, so nothing of it is copied.
    private static func answer(
        _ decision: inout (write: PendingWrite, batch: WriteBatch, index: Int),
        _ answer: (PendingWrite) -> WriteBatch.Answer
    ) {
        decision.batch.answer(decision.index, answer(decision.write))
    }
}
