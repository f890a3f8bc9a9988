import HearthSystem

/// Linearizable reads on any replica (thesis §6.4): `readIndex(timeoutTicks:)` returns an index of the group's log
/// such that a read served once the application applied through it reflects every write committed before the call.
/// Callers waiting at the same time share one round (`ReadIndexRounds`); the run loop answers rounds from the
/// Readies' read states, retries them when the leader changes, and ticks advance their deadlines.
extension RaftGroupHost {
    /// The rounds, and the callers waiting for their answers.
    struct ReadRequests: Sendable {
        var rounds: ReadIndexRounds
        var callers: [ReadIndexRounds.Request: CheckedContinuation<Result<UInt64, ReadIndexError>, Never>] = [:]
        var isStopped = false
    }

    /// Returns the read index: the group's commit index as its leader confirmed it with a quorum after this call
    /// began. Serve the read once the application has applied through it.
    /// - Parameter timeoutTicks: how many of the group's ticks to wait, retries included.
    /// - Throws: `ReadIndexError` when no leader could be reached or confirmed in time, or the host stopped.
    package func readIndex(timeoutTicks: Int) async throws(ReadIndexError) -> UInt64 {
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<UInt64, ReadIndexError>, Never>) in
            let ask: [UInt8]?? = self.reads.withLock { reads in
                guard !reads.isStopped else { return nil }
                let (request, effects) = reads.rounds.enqueue(timeoutTicks: timeoutTicks)
                reads.callers[request] = continuation
                return .some(effects.ask)
            }
            switch ask {
            case nil: continuation.resume(returning: .failure(.stopped))
            case .some(let context?): self.ask(context)
            case .some(nil): break
            }
        }
        return try result.get()
    }

    /// How many read-index requests wait for an answer.
    package var pendingReadIndexRequests: Int { self.reads.withLock { $0.rounds.pendingCount } }

    /// Feeds the rounds one input, resumes the callers it answered or failed, and asks the replica when it says so.
    func updateReads(_ input: (inout ReadIndexRounds) -> ReadIndexRounds.Effects) {
        let (ask, resumed) = self.reads.withLock { reads in
            let effects = input(&reads.rounds)
            return (effects.ask, Self.takeCallers(effects, from: &reads))
        }
        for (caller, result) in resumed { caller.resume(returning: result) }
        if let ask { self.ask(ask) }
    }

    /// Fails every waiting request, and every later one.
    func stopReads() {
        let resumed = self.reads.withLock { reads in
            reads.isStopped = true
            return Self.takeCallers(reads.rounds.stop(), from: &reads)
        }
        for (caller, result) in resumed { caller.resume(returning: result) }
    }

    /// Asks the replica for a read index with `context` and reports whether it knew a leader to ask.
    private func ask(_ context: [UInt8]) {
        let succeeded = self.node.withLock { node in
            do {
                try node.readIndex(context: context)
                return true
            } catch {
                return false
            }
        }
        self.reads.withLock { $0.rounds.asked(context, succeeded: succeeded) }
        self.wake.yield()
    }

    private static func takeCallers(_ effects: ReadIndexRounds.Effects, from reads: inout ReadRequests)
        -> [(CheckedContinuation<Result<UInt64, ReadIndexError>, Never>, Result<UInt64, ReadIndexError>)]
    {
        var resumed: [(CheckedContinuation<Result<UInt64, ReadIndexError>, Never>, Result<UInt64, ReadIndexError>)] = []
        for (request, index) in effects.answered {
            guard let caller = reads.callers.removeValue(forKey: request) else { continue }
            resumed.append((caller, .success(index)))
        }
        for (request, error) in effects.failed {
            guard let caller = reads.callers.removeValue(forKey: request) else { continue }
            resumed.append((caller, .failure(error)))
        }
        return resumed
    }
}
