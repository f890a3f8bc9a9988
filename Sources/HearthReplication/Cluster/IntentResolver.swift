import HearthDatabase
import HearthNet
import HearthSystem

/// Finishes transactions whose coordinator went away, on the shards this node leads.
///
/// A coordinator that crashes, or is cut off, between its prepares and its finishes leaves parts prepared: their
/// paths stay locked in the participants' state machines. A part prepared here for longer than `orphanCheckAfter`
/// (by this node's own clock, so clock skew between nodes does not matter) that no node's coordinator still runs
/// (`TransactionClaims`), or any part prepared longer than `resolveAfter`, is resolved: the resolver asks the
/// transaction's anchor to abort unless it already decided — the anchor's first decision wins, so a slow
/// coordinator's commit and this abort can never both take effect — and then finishes every participant's part with
/// the decision the anchor holds. Read locks a vanished coordinator left (leader memory) go once no coordinator
/// claims them, or after `readLockTimeout`; on a shard this node no longer leads they go at the next pass, with the
/// commands parked there.
///
/// A member that does not answer the question (a crashed node whose connection has not dropped yet, one cut off by
/// a partition that keeps connections up) may be running the transaction, so its silence first counts for nothing;
/// once a part has been prepared for `silenceAfter`, silence counts as no claim. That is as safe as any abort here
/// (the anchor's first decision wins; a coordinator that was only slow gets its write refused and retries), and it
/// bounds how long a dead coordinator's parts block their paths by `silenceAfter` instead of `resolveAfter`.
///
/// The anchor forgets a commit decision only when this resolver itself finished every other part (a part another
/// resolver or the coordinator finished may not be committed yet); an abort the resolver made is never forgotten,
/// since a coordinator that is only slow, not gone, may still ask to commit, and only that abort refuses it. A
/// decision kept longer costs memory, never correctness.
final class IntentResolver: Sendable {
    private let actors: [ShardActor]
    private let client: any ShardClient
    private let log: any ShardLog
    private let forgets: DecisionsToForget
    /// Which transactions the cluster's coordinators still run.
    private let claims: @Sendable ([TransactionID]) async -> TransactionClaims
    let readLockTimeout: Duration
    /// How long each prepared part this node leads has been prepared, and what to do with it by then.
    private let ages: Lock<PreparedPartAges>
    /// What "prepared for too long" is measured against.
    private let clock: any NodeClock
    /// What the passes did so far, for `/.metrics`.
    private let tally = Lock(IntentResolverStatistics())
    /// Where resolutions are told (debug: each one; info: a failed one, a pass slower than a second).
    private let logger: Log

    /// - Parameters:
    ///   - claims: asks the cluster's coordinators which of some transactions they still run (`ClaimsQuestion`).
    ///   - orphanCheckAfter: how long a part is prepared here (or a read lock held) before the coordinators are
    ///     asked whether its transaction still runs; longer than a transaction takes when nothing fails.
    ///   - silenceAfter: how long a part is prepared here (or a read lock held) before a member that leaves the
    ///     question unanswered counts as not running its transaction; longer than a claims question's timeout, so a
    ///     member that is only slow has answered one question by then.
    ///   - resolveAfter: how long a part is prepared here before it is resolved whatever the coordinators say
    ///     (one that does not answer may be alive and slow, or stuck).
    init(
        actors: [ShardActor], client: any ShardClient, log: any ShardLog, forgets: DecisionsToForget,
        claims: @escaping @Sendable ([TransactionID]) async -> TransactionClaims = { _ in .unknown },
        orphanCheckAfter: Duration = .milliseconds(200), silenceAfter: Duration = .seconds(1),
        resolveAfter: Duration = .seconds(10),
        readLockTimeout: Duration = .seconds(10), clock: any NodeClock = .system, logger: Log = Log(level: .warning)
    ) {
        self.clock = clock
        self.logger = logger
        self.claims = claims
        self.ages = Lock(
            PreparedPartAges(
                orphanCheckAfter: orphanCheckAfter, silenceAfter: silenceAfter, resolveAfter: resolveAfter))
        self.actors = actors
        self.client = client
        self.log = log
        self.forgets = forgets
        self.readLockTimeout = readLockTimeout
    }

    /// How long a part is prepared before the coordinators are asked whether its transaction still runs.
    var orphanCheckAfter: Duration { self.ages.withLock { $0.orphanCheckAfter } }

    /// How long a part is prepared before a member's silence counts as no claim (see the parameter).
    var silenceAfter: Duration { self.ages.withLock { $0.silenceAfter } }

    /// How long a part is prepared before it is resolved whatever the coordinators say.
    var resolveAfter: Duration { self.ages.withLock { $0.resolveAfter } }

    /// One pass over the shards: on those this node leads, drops read locks no coordinator claims or held too long,
    /// and resolves the parts no coordinator claims or prepared too long (as of `now`, the clock's time unless
    /// given); on the others, releases what it held while leading (`ShardActor.releaseIfDeposed`).
    /// - Returns: the transactions resolved.
    @discardableResult
    func resolveOnce(now: ContinuousClock.Instant? = nil) async -> [TransactionID] {
        let now = now ?? self.clock.now
        let passStarted = self.clock.now
        defer {
            let took = self.clock.now - passStarted
            if took >= .seconds(1) {
                self.logger.info(
                    "transaction.resolver_slow_pass", ["took_ms": "\(took.reactorNanoseconds / 1_000_000)"])
            }
        }
        var prepared: [TransactionID: ShardIntent] = [:]
        var lockHolders: [(actor: ShardActor, transaction: TransactionID)] = []
        /// Those held here for `silenceAfter`: a member's silence no longer counts as a claim on them.
        var overdue: Set<TransactionID> = []
        for actor in self.actors {
            guard self.log.acceptsAppends(shard: actor.id) else {
                await actor.releaseIfDeposed()
                continue
            }
            await actor.expireReadLocks(takenBefore: now - self.readLockTimeout)
            for transaction in await actor.readLockHolders(takenBefore: now - self.orphanCheckAfter) {
                lockHolders.append((actor, transaction))
            }
            prepared.merge(await actor.intents) { first, _ in first }
        }
        let sorted = self.ages.withLock { $0.observe(prepared, now: now) }
        var stale = sorted.stale
        let suspects = sorted.suspects
        let asked = Set(suspects.keys).union(lockHolders.map(\.transaction))
        if !asked.isEmpty {
            let asking = self.clock.now
            let answer = await self.claims(asked.sorted())
            // Silence is weighed once the question ended: a member that stayed silent through it, about a part
            // prepared (or a read lock held) for `silenceAfter` by then, claims nothing.
            let answered = self.clock.now
            overdue = self.ages.withLock { $0.overdue(suspects.keys, at: answered) }
            let locking = Set(lockHolders.map(\.actor.id))
            for actor in self.actors where locking.contains(actor.id) {
                overdue.formUnion(await actor.readLockHolders(takenBefore: answered - self.silenceAfter))
            }
            if !answer.isComplete {
                self.tally.withLock { $0.incompleteClaims += 1 }
                self.logger.debug(
                    "transaction.claims_incomplete",
                    [
                        "asked": "\(asked.count)",
                        "took_ms": "\((self.clock.now - asking).reactorNanoseconds / 1_000_000)",
                    ])
            }
            let orphans = Set(answer.orphans(among: asked)).union(
                answer.orphans(among: asked.intersection(overdue), trustingSilence: true))
            for (transaction, intent) in suspects where orphans.contains(transaction) { stale[transaction] = intent }
            for (actor, transaction) in lockHolders where orphans.contains(transaction) {
                await actor.unlock(transaction)
            }
        }
        var resolved: [TransactionID] = []
        for (transaction, intent) in stale.sorted(by: { $0.key < $1.key }) {
            let (age, orphan) = self.ages.withLock { ages in
                let age = ages.age(of: transaction, at: now)
                return (age, ages.isOrphan(age: age))
            }
            let started = self.clock.now
            do {
                let commit = try await self.resolve(transaction, plan: intent.plan)
                resolved.append(transaction)
                self.tally.withLock { $0.resolved(orphan: orphan, preparedFor: age) }
                self.logger.debug(
                    "transaction.resolved",
                    [
                        "transaction": "\(transaction)", "anchor": "\(intent.plan.anchor)",
                        "decision": commit.map { $0 ? "commit" : "abort" } ?? "none",
                        "reason": orphan ? "no_coordinator" : "prepared_too_long",
                        "prepared_ms": "\(age.reactorNanoseconds / 1_000_000)",
                        "took_ms": "\((self.clock.now - started).reactorNanoseconds / 1_000_000)",
                    ])
            } catch {
                self.tally.withLock { $0.failures += 1 }
                self.logger.info(
                    "transaction.resolve_failed",
                    [
                        "transaction": "\(transaction)", "anchor": "\(intent.plan.anchor)",
                        "prepared_ms": "\(age.reactorNanoseconds / 1_000_000)",
                        "took_ms": "\((self.clock.now - started).reactorNanoseconds / 1_000_000)",
                        "error": "\(error)",
                    ])
                continue
            }
        }
        return resolved
    }

    /// Learns (or makes) the anchor's decision, then finishes every other participant's part with it.
    /// - Returns: the decision (true: commit), or nil when the anchor answered that there is nothing to finish.
    @discardableResult
    private func resolve(_ transaction: TransactionID, plan: ShardTransactionPlan) async throws -> Bool? {
        let commit: Bool
        // The decision is acted on only once committed: an abort or commit a deposed leader logged may be lost.
        switch try await self.client.decide(
            shard: plan.anchor, transaction, commit: false, part: nil, spineValues: [:], readLockTerm: nil)
        {
        case .logged(let position, _):
            try await self.log.waitUntilCommitted([position])
            commit = false
        case .alreadyDecided(let decided, let position):
            if let position { try await self.log.waitUntilCommitted([position]) }
            commit = decided
        case .needsAllShards, .duplicate:
            // Neither answers an abort, which carries no part; nothing to finish.
            return nil
        }
        var positions: [ShardLogPosition] = []
        var finishedAll = true
        for participant in plan.participants where participant != plan.anchor {
            if let (position, _) = try await self.client.finish(shard: participant, transaction, commit: commit) {
                positions.append(position)
            } else {
                finishedAll = false
            }
        }
        try await self.log.waitUntilCommitted(positions)
        // An abort stays at the anchor for good: the coordinator may still be alive and late, and only the abort held
        // there refuses its commit. A commit was the coordinator's own, which it never sends again.
        if finishedAll && commit { self.forgets.add(transaction, anchor: plan.anchor) }
        return commit
    }

    /// What the passes did so far.
    var statistics: IntentResolverStatistics { self.tally.withLock { $0 } }
}
