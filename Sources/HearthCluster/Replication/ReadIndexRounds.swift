/// The read-index requests of one replica, batched into rounds: one `RaftNode.readIndex(context:)` (one heartbeat
/// round on the leader, thesis §6.4) answers every request that was waiting when the round started, so a read-heavy
/// load costs a round per batch, not per read. A request that arrives while a round is out joins the next one: the
/// index a round brings back may predate it.
///
/// A round's context is this replica's nonce and the round's number, so an answer meant for an earlier round (or an
/// earlier run of the node) never matches. A round that gets no answer is asked again every `retryTicks` ticks with
/// the same context, and at once when the group's leader changes (a new leader forgot the old one's pending reads);
/// while the replica knows no leader it is asked on every tick. Each request has a deadline in ticks.
///
/// A pure value in ticks; `RaftGroupHost` runs it and holds the callers.
package struct ReadIndexRounds: Sendable {
    /// A request's number, matching answers to waiting callers.
    package typealias Request = UInt64

    /// What the shell does after an input.
    package struct Effects: Sendable, Equatable {
        /// Ask the replica for a read index with this context (a new round, or the current one again), then report
        /// whether it could with `asked(_:succeeded:)`.
        package var ask: [UInt8]?
        /// Requests answered: read through this index of the group's log.
        package var answered: [Request: UInt64] = [:]
        /// Requests that failed.
        package var failed: [Request: ReadIndexError] = [:]

        package init(
            ask: [UInt8]? = nil, answered: [Request: UInt64] = [:], failed: [Request: ReadIndexError] = [:]
        ) {
            self.ask = ask
            self.answered = answered
            self.failed = failed
        }
    }

    private struct Round {
        var context: [UInt8]
        var requests: [Request]
        /// The tick of the last successful ask; nil while the replica knew no leader to ask.
        var askedAt: UInt64?
        /// Whether any ask reached a leader (a request that times out without one failed for want of a leader).
        var reachedLeader = false
    }

    private let nonce: UInt64
    private let retryTicks: UInt64
    private var now: UInt64 = 0
    private var nextRequest: Request = 0
    private var nextRound: UInt64 = 0
    private var waiting: [Request] = []
    private var round: Round?
    private var deadlines: [Request: UInt64] = [:]

    /// - Parameters:
    ///   - nonce: distinguishes this replica's contexts from those of its earlier runs (pass a random number).
    ///   - retryTicks: how long a round waits for its answer before it is asked again.
    package init(nonce: UInt64, retryTicks: Int) {
        precondition(retryTicks >= 1, "a read-index round must wait at least one tick before it is asked again")
        self.nonce = nonce
        self.retryTicks = UInt64(retryTicks)
    }

    /// Requests waiting, in the round that is out and for the next one.
    package var pendingCount: Int { self.deadlines.count }

    /// Takes a request that fails once `timeoutTicks` ticks have passed without an answer; starts a round when none
    /// is out.
    package mutating func enqueue(timeoutTicks: Int) -> (Request, Effects) {
        let request = self.nextRequest
        self.nextRequest += 1
        self.deadlines[request] = self.now + UInt64(max(1, timeoutTicks))
        self.waiting.append(request)
        var effects = Effects()
        if self.round == nil { self.startRound(into: &effects) }
        return (request, effects)
    }

    /// The shell asked the replica for the round with `context`: `succeeded` is false when the replica knew no
    /// leader to ask (it is asked again on the next tick).
    package mutating func asked(_ context: [UInt8], succeeded: Bool) {
        guard self.round?.context == context else { return }
        if succeeded {
            self.round?.askedAt = self.now
            self.round?.reachedLeader = true
        } else {
            self.round?.askedAt = nil
        }
    }

    /// A read state arrived: when it answers the round that is out, every request of the round is answered and the
    /// next round starts.
    package mutating func answer(context: [UInt8], index: UInt64) -> Effects {
        var effects = Effects()
        guard let round = self.round, round.context == context else { return effects }
        for request in round.requests {
            self.deadlines[request] = nil
            effects.answered[request] = index
        }
        self.round = nil
        if !self.waiting.isEmpty { self.startRound(into: &effects) }
        return effects
    }

    /// One tick: requests past their deadline fail; a round without an answer for `retryTicks` (or never asked) is
    /// asked again.
    package mutating func tick() -> Effects {
        self.now += 1
        var effects = Effects()
        let expired = Set(self.deadlines.filter { $0.value <= self.now }.keys)
        if !expired.isEmpty {
            let reason: ReadIndexError = self.round?.reachedLeader == false ? .noLeader : .timedOut
            for request in expired {
                self.deadlines[request] = nil
                effects.failed[request] = self.round?.requests.contains(request) == true ? reason : .timedOut
            }
            self.waiting.removeAll { expired.contains($0) }
            self.round?.requests.removeAll { expired.contains($0) }
            if self.round?.requests.isEmpty == true {
                self.round = nil
                if !self.waiting.isEmpty { self.startRound(into: &effects) }
            }
        }
        if effects.ask == nil, let round = self.round {
            let isDue = round.askedAt.map { self.now - $0 >= self.retryTicks } ?? true
            if isDue { effects.ask = round.context }
        }
        return effects
    }

    /// The group's leader or term changed: the round that is out is asked again (of the new leader).
    package mutating func leaderChanged() -> Effects {
        Effects(ask: self.round?.context)
    }

    /// The replica stops: every request fails.
    package mutating func stop() -> Effects {
        var effects = Effects()
        for request in self.deadlines.keys { effects.failed[request] = .stopped }
        self.deadlines = [:]
        self.waiting = []
        self.round = nil
        return effects
    }

    private mutating func startRound(into effects: inout Effects) {
        var context: [UInt8] = []
        context.reserveCapacity(16)
        for value in [self.nonce, self.nextRound] {
            for shift in stride(from: 56, through: 0, by: -8) {
                context.append(UInt8(truncatingIfNeeded: value >> shift))
            }
        }
        self.nextRound += 1
        self.round = Round(context: context, requests: self.waiting)
        self.waiting = []
        effects.ask = context
    }
}
