import HearthCore
import HearthSystem
import HearthWire

/// Decides the writes of the write loop's turns on a single node: for each write, the synchronous core of
/// `Coordinator.submit` over the one ordered log.
///
/// A write inside one shard is applied and logged at once (`ShardActor.writeNow`); one spanning shards commits every
/// part at once in one record (`ShardActor.commitTogether`). A write that cannot be decided in the turn (a prepared
/// transaction holds its paths, it lands below a spine leaf, it must read before it writes, it is bigger than
/// `Coordinator.togetherByteLimit`), or whose rules' guards came back stale, takes a detour: it and every later write
/// of its connection are ordered, in order, through the async `Coordinator.submit` (or `AccessControl.submit`, which
/// checks the rules again) in one task per detour; once that task has ordered the last of them, the connection's
/// writes are decided in the turns again. Writes of different connections have no order between them until
/// answered, so only each connection's order is kept.
package final class WriteDecider: Sendable {
    let loop: WriteLoop
    let coordinator: Coordinator
    /// The node's shard actors, every one on `loop`.
    let shards: [ShardActor]
    /// By connection: the writes of a detour, oldest first, not yet ordered by its task.
    private let detours = Lock<[UInt64: [(batch: WriteBatch, index: Int)]]>([:])

    init(loop: WriteLoop, coordinator: Coordinator, shards: [ShardActor]) {
        self.loop = loop
        self.coordinator = coordinator
        self.shards = shards
    }

    /// Hands `writes` of `connection` to the loop, ordered after the connection's earlier writes; `completion` gets
    /// their answers, in order, once every one is committed and shown (or refused, or failed). Never waits.
    package func submit(
        connection: UInt64, _ writes: [LoopWrite],
        completion: @escaping @Sendable ([WriteBatch.Answer]) -> Void
    ) {
        guard !writes.isEmpty else { return completion([]) }
        self.loop.submit(
            WriteBatch(decider: self, connection: connection, writes: writes, completion: .all(completion)))
    }

    /// Hands one `write` of `connection` to the loop as `submit(connection:_:completion:)` does; `completion` gets
    /// its answer as it is (no array of one answer is made for it).
    package func submit(
        connection: UInt64, _ write: LoopWrite, completion: @escaping @Sendable (WriteBatch.Answer) -> Void
    ) {
        self.loop.submit(
            WriteBatch(decider: self, connection: connection, writes: [write], completion: .one(completion)))
    }

    /// Hands one `write` of `connection` to the loop as `submit(connection:_:completion:)` does, for an answer read
    /// only for whether the write committed (the realtime protocol's acknowledgement carries no data): a committed
    /// write spanning shards is answered `.committed([])`, so its parts are not joined into the one list
    /// of its resolved mutations that no one reads (`CommitFeed.merge`, a star's four mutations sorted and copied).
    /// `completion` gets `tag` with the answer: a caller that needs a number back with each answer passes a closure
    /// capturing only its object, which costs no allocation per write (one capturing the number too does).
    package func submitAcknowledged(
        connection: UInt64, _ write: LoopWrite, tag: UInt64,
        completion: @escaping @Sendable (UInt64, WriteBatch.Answer) -> Void
    ) {
        self.loop.submit(
            WriteBatch(
                decider: self, connection: connection, writes: [write], completion: .acknowledgement(tag, completion)))
    }

    /// What a write became in the turn.
    private enum Decision {
        /// It has its place in the log (or was refused, or is a duplicate): answered once the view shows it.
        case ordered(PendingWrite)
        /// It was refused and nothing was written (an increment that would overflow).
        case failed(any Error)
        /// It cannot be decided in the turn, and nothing changed.
        case detour
    }

    /// Decides every write of `batch` (on the loop thread, in its turn).
    func decide(_ batch: WriteBatch, in turn: inout WriteTurn) {
        // By index, each write handed to `decide` where the batch's buffer holds it (enumerated, each was copied
        // out whole: its namespace, mutations, conditions, origin and recheck retained, then released).
        batch.writes.withUnsafeBufferPointer { writes in
            for index in writes.indices {
                if self.joinDetour(batch, index) { continue }
                // One `.ordered` case, so the decided write is bound once and moved into the turn (a case with a
                // `where` clause before it copied it for the clause, then again for the case that took it).
                switch self.decide(writes[index], withMutations: batch.answersWithMutations) {
                case .ordered(let pending):
                    if writes[index].recheck != nil && pending.isStale {
                        self.startDetour(batch, index)
                    } else {
                        turn.add(pending, batch: batch, index: index)
                    }
                case .failed(let error):
                    batch.answer(index, .failure(error))
                case .detour:
                    self.startDetour(batch, index)
                }
            }
        }
    }

    /// The synchronous core of `Coordinator.submit`, on the loop thread.
    /// - Parameter withMutations: whether a committed write's answer holds its mutations as resolved (else it holds
    ///   none, for an answer that only says it committed).
    private func decide(_ write: LoopWrite, withMutations: Bool) -> Decision {
        guard !write.mutations.isEmpty else {
            return .ordered(
                PendingWrite(view: self.coordinator.view, log: self.coordinator.log, state: .committed([], [])))
        }
        // Each mutation's shard, hashed once: nil for a spine path, which every shard holds a copy of. The
        // namespace is hashed once for them all, and each mutation routed by a borrowing step where the array's
        // buffer holds it (mapped, each was copied out whole, and its path copied out of it again).
        let router = self.coordinator.router
        let namespace = ShardHash(namespace: write.namespace)
        let owners = write.mutations.withUnsafeBufferPointer { mutations in
            mutations.indices.map { router.shard(namespace: namespace, of: mutations[$0]) }
        }
        do {
            if write.conditions.isEmpty, !owners.contains(nil) {
                if case let only?? = owners.first, owners.allSatisfy({ $0 == only }) {
                    return try self.writeNow(write, in: only)
                }
                return try self.commitTogether(write, owners: owners, withMutations: withMutations)
            }
            let participants = self.coordinator.participants(
                namespace: write.namespace, mutations: write.mutations, conditions: write.conditions)
            if participants.count == 1, let only = participants.first { return try self.writeNow(write, in: only) }
            return try self.commitTogether(write, withMutations: withMutations)
        } catch {
            return .failed(error)
        }
    }

    /// A write wholly inside shard `only`, applied and logged at once.
    private func writeNow(_ write: LoopWrite, in only: Int) throws -> Decision {
        let (view, log) = (self.coordinator.view, self.coordinator.log)
        let shardWrite = ShardWrite(
            namespace: write.namespace, mutations: write.mutations, now: write.now, origin: write.origin)
        let result = try self.shards[only].writeNow(shardWrite, conditions: write.conditions)
        switch result {
        case .appended(let position, let resolved)?:
            return .ordered(PendingWrite(view: view, log: log, state: .committed([position], resolved)))
        case .conditionFailed(let through)?:
            return .ordered(
                PendingWrite(
                    view: view, log: log,
                    state: .stale(
                        namespace: write.namespace, path: write.conditions.first?.path ?? .root,
                        through: [only: through], origin: write.origin)))
        case .duplicate(let through)?:
            return .ordered(PendingWrite(view: view, log: log, state: .duplicate(through: [only: through])))
        case .needsAllShards?, nil:
            return .detour
        }
    }

    /// A write spanning shards: every part at once, in one record, when nothing needs reading first and no
    /// participant is obstructed.
    private func commitTogether(_ write: LoopWrite, withMutations: Bool) throws -> Decision {
        guard self.shards.count > 1, Coordinator.fitsOneRecord(write.mutations) else { return .detour }
        let id = self.coordinator.nextTransactionID()
        var machine = TwoPhaseCommit(
            transaction: id, namespace: write.namespace, mutations: write.mutations, conditions: write.conditions,
            now: write.now, origin: write.origin, router: self.coordinator.router, together: true)
        guard case .commitTogether(let anchor, let parts) = machine.start().first else { return .detour }
        let decision = try self.commitTogether(
            id, anchor: anchor, participants: parts.map(\.shard), parts: parts.map { .commit(id, $0.intent) },
            spineValues: machine.spineValues, withMutations: withMutations)
        if case .ordered = decision { machine.onCommittedTogether() }
        return decision
    }

    /// A write of paths below the spine in several shards, with no condition (`owners`: each mutation's shard, none
    /// nil): its parts are what `TwoPhaseCommit` would cut (each shard's mutations, in the write's order, the highest
    /// shard the anchor), made here without the transaction's machine, which such a write never needs.
    private func commitTogether(_ write: LoopWrite, owners: [Int?], withMutations: Bool) throws -> Decision {
        guard self.shards.count > 1, Coordinator.fitsOneRecord(write.mutations) else { return .detour }
        // Ascending and distinct (a write names a handful of shards: sorted in place, with no set built).
        var participants: [Int] = []
        participants.reserveCapacity(owners.count)
        for case let owner? in owners { participants.append(owner) }
        participants.sort()
        participants.removeSubrange(Self.uniqued(&participants)...)
        guard let anchor = participants.last else { return .detour }
        let plan = ShardTransactionPlan(anchor: anchor, participants: participants)
        let id = self.coordinator.nextTransactionID()
        // Each part made as the entry its shard logs, once: applied and encoded as it is, never copied into one.
        let parts = participants.map { shard -> ShardEntry in
            // Sized to the part exactly: the array is allocated once, no larger than it holds.
            var mutations: [Mutation] = []
            mutations.reserveCapacity(owners.reduce(0) { $1 == shard ? $0 + 1 : $0 })
            for index in owners.indices where owners[index] == shard { mutations.append(write.mutations[index]) }
            return .commit(
                id,
                ShardIntent(
                    write: ShardWrite(
                        namespace: write.namespace, mutations: mutations, now: write.now, origin: write.origin),
                    plan: plan))
        }
        return try self.commitTogether(
            id, anchor: anchor, participants: participants, parts: parts, spineValues: [:],
            withMutations: withMutations)
    }

    /// Moves the distinct values of the sorted `values` to its front, in order; returns where the rest begins.
    private static func uniqued(_ values: inout [Int]) -> Int {
        var end = 0
        for index in values.indices where end == 0 || values[index] != values[end - 1] {
            values[end] = values[index]
            end += 1
        }
        return end
    }

    /// Commits transaction `id`'s parts (`parts`, each its shard's `ShardEntry.commit`, with its shard in
    /// `participants`) at once on `anchor`; a detour when a participant is obstructed. The parts as resolved are
    /// joined into the write's one list only `withMutations`.
    private func commitTogether(
        _ id: TransactionID, anchor: Int, participants: [Int], parts: [ShardEntry], spineValues: [Path: Node],
        withMutations: Bool
    ) throws -> Decision {
        let outcome = try self.shards[anchor].commitTogetherNow(
            id, participants: participants, of: self.shards, parts: parts, spineValues: spineValues)
        guard case .committed(let logged, let resolved) = outcome else { return .detour }
        return .ordered(
            PendingWrite(
                view: self.coordinator.view, log: self.coordinator.log,
                state: .committed(logged, withMutations ? CommitFeed.merge(resolved, spineValues: spineValues) : [])))
    }

    /// Queues write `index` of `batch` behind its connection's detour, if one is under way.
    private func joinDetour(_ batch: WriteBatch, _ index: Int) -> Bool {
        self.detours.withLock { detours in
            // Detours are rare: with none under way, no connection is looked up.
            guard !detours.isEmpty, var queue = detours.removeValue(forKey: batch.connection) else { return false }
            queue.append((batch, index))
            detours[batch.connection] = queue
            return true
        }
    }

    /// Starts a detour for the connection of `batch` with write `index`.
    private func startDetour(_ batch: WriteBatch, _ index: Int) {
        self.detours.withLock { $0[batch.connection] = [(batch, index)] }
        Task { await self.runDetour(batch.connection) }
    }

    /// Orders the detour's writes one after another through the async path, each answered when done; ends (and
    /// the connection's writes go back to the turns) once the last queued one is ordered.
    private func runDetour(_ connection: UInt64) async {
        while let (batch, index) = self.nextDetoured(connection) {
            let write = batch.writes[index]
            do {
                let pending: PendingWrite
                if let recheck = write.recheck {
                    pending = try await recheck()
                } else {
                    pending = try await self.coordinator.submit(
                        namespace: write.namespace, mutations: write.mutations, conditions: write.conditions,
                        now: write.now, origin: write.origin)
                }
                pending.whenDone { batch.answer(index, $0) }
            } catch {
                batch.answer(index, .failure(error))
            }
        }
    }

    /// The oldest write of the connection's detour; nil (and the detour is over) when none is left.
    private func nextDetoured(_ connection: UInt64) -> (batch: WriteBatch, index: Int)? {
        self.detours.withLock { detours in
            guard var queue = detours[connection], !queue.isEmpty else {
                detours[connection] = nil
                return nil
            }
            let next = queue.removeFirst()
            detours[connection] = queue
            return next
        }
    }
}
