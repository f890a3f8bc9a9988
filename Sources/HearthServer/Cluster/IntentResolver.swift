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
    let orphanCheckAfter: Duration
    let resolveAfter: Duration
    let readLockTimeout: Duration
    /// When this node first saw each prepared part it leads.
    private let firstSeen = Lock<[TransactionID: ContinuousClock.Instant]>([:])
    /// What "prepared for too long" is measured against.
    private let clock: any NodeClock

    /// - Parameters:
    ///   - claims: asks the cluster's coordinators which of some transactions they still run (`ClaimsQuestion`).
    ///   - orphanCheckAfter: how long a part is prepared here (or a read lock held) before the coordinators are
    ///     asked whether its transaction still runs; longer than a transaction takes when nothing fails.
    ///   - resolveAfter: how long a part is prepared here before it is resolved whatever the coordinators say
    ///     (one that does not answer may be alive and slow, or stuck).
    init(
        actors: [ShardActor], client: any ShardClient, log: any ShardLog, forgets: DecisionsToForget,
        claims: @escaping @Sendable ([TransactionID]) async -> TransactionClaims = { _ in .unknown },
        orphanCheckAfter: Duration = .milliseconds(200), resolveAfter: Duration = .seconds(10),
        readLockTimeout: Duration = .seconds(10), clock: any NodeClock = .system
    ) {
        self.clock = clock
        self.claims = claims
        self.orphanCheckAfter = orphanCheckAfter
        self.actors = actors
        self.client = client
        self.log = log
        self.forgets = forgets
        self.resolveAfter = resolveAfter
        self.readLockTimeout = readLockTimeout
    }

    /// One pass over the shards: on those this node leads, drops read locks no coordinator claims or held too long,
    /// and resolves the parts no coordinator claims or prepared too long (as of `now`, the clock's time unless
    /// given); on the others, releases what it held while leading (`ShardActor.releaseIfDeposed`).
    /// - Returns: the transactions resolved.
    @discardableResult
    func resolveOnce(now: ContinuousClock.Instant? = nil) async -> [TransactionID] {
        let now = now ?? self.clock.now
        var stale: [TransactionID: ShardIntent] = [:]
        var suspects: [TransactionID: ShardIntent] = [:]
        var lockHolders: [(actor: ShardActor, transaction: TransactionID)] = []
        var present: Set<TransactionID> = []
        for actor in self.actors {
            guard self.log.acceptsAppends(shard: actor.id) else {
                await actor.releaseIfDeposed()
                continue
            }
            await actor.expireReadLocks(takenBefore: now - self.readLockTimeout)
            for transaction in await actor.readLockHolders(takenBefore: now - self.orphanCheckAfter) {
                lockHolders.append((actor, transaction))
            }
            for (transaction, intent) in await actor.intents {
                present.insert(transaction)
                let seen = self.firstSeen.withLock { $0[transaction, default: now] }
                self.firstSeen.withLock { $0[transaction] = seen }
                if now - seen >= self.resolveAfter {
                    stale[transaction] = intent
                } else if now - seen >= self.orphanCheckAfter {
                    suspects[transaction] = intent
                }
            }
        }
        self.firstSeen.withLock { $0 = $0.filter { present.contains($0.key) } }
        let asked = Set(suspects.keys).union(lockHolders.map(\.transaction))
        if !asked.isEmpty {
            let orphans = Set(await self.claims(asked.sorted()).orphans(among: asked))
            for (transaction, intent) in suspects where orphans.contains(transaction) { stale[transaction] = intent }
            for (actor, transaction) in lockHolders where orphans.contains(transaction) {
                await actor.unlock(transaction)
            }
        }
        var resolved: [TransactionID] = []
        for (transaction, intent) in stale.sorted(by: { $0.key < $1.key }) {
            do {
                try await self.resolve(transaction, plan: intent.plan)
                resolved.append(transaction)
            } catch {
                continue
            }
        }
        return resolved
    }

    /// Learns (or makes) the anchor's decision, then finishes every other participant's part with it.
    private func resolve(_ transaction: TransactionID, plan: ShardTransactionPlan) async throws {
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
            return
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
    }
}
