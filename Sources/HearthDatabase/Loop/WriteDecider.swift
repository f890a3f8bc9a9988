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
    private let detours = Lock<[UInt64: [Detoured]]>([:])

    /// A write of a detour: write `index` of `batch`, held by the detour until its task orders it.
    private struct Detoured {
        let batch: WriteBatch
        let index: Int
        let write: LoopWrite
    }

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
            WriteBatch(decider: self, connection: connection, count: writes.count, completion: .all(completion)),
            consume writes)
    }

    /// Hands one `write` of `connection` to the loop as `submit(connection:_:completion:)` does; `completion` gets
    /// its answer as it is (no array of one answer is made for it).
    package func submit(
        connection: UInt64, _ write: consuming LoopWrite, completion: @escaping @Sendable (WriteBatch.Answer) -> Void
    ) {
        self.loop.submit(
            WriteBatch(decider: self, connection: connection, count: 1, completion: .one(completion)), consume write)
    }

    /// Hands one `write` of `connection` to the loop as `submit(connection:_:completion:)` does, for an answer read
    /// only for whether the write committed (the realtime protocol's acknowledgement carries no data): a committed
    /// write spanning shards is answered `.committed([])`, so its parts are not joined into the one list
    /// of its resolved mutations that no one reads (`CommitFeed.merge`, a star's four mutations sorted and copied).
    /// `completion` gets `tag` with the answer: a caller that needs a number back with each answer passes a closure
    /// capturing only its object, which costs no allocation per write (one capturing the number too does). The
    /// write is moved to the loop, not copied (its fields retained here, released where the batch ends).
    package func submitAcknowledged(
        connection: UInt64, _ write: consuming LoopWrite, tag: UInt64,
        completion: @escaping @Sendable (UInt64, WriteBatch.Answer) -> Void
    ) {
        self.loop.submit(
            WriteBatch(decider: self, connection: connection, count: 1, completion: .acknowledgement(tag, completion)),
            consume write)
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

    /// Decides `writes`, the writes of `batch` in its order (on the loop thread, in its turn), each moved out of the
    /// list into its decision.
    func decide(_ writes: consuming [LoopWrite], of batch: WriteBatch, in turn: inout WriteTurn) {
        writes.reverseByMoving()
        var index = 0
        while let write = writes.popLast() {
            self.decide(write, of: batch, index: index, in: &turn)
            index += 1
        }
    }

    /// Decides `write`, write `index` of `batch` (on the loop thread, in its turn): its mutations are moved into the
    /// entries its shards log, and a detour takes it whole.
    func decide(_ write: consuming LoopWrite, of batch: WriteBatch, index: Int, in turn: inout WriteTurn) {
        guard var write = self.joinDetour(batch, index, consume write) else { return }
        // One `.ordered` case, so the decided write is bound once and moved into the turn (a case with a `where`
        // clause before it copied it for the clause, then again for the case that took it).
        switch self.decide(&write, withMutations: batch.answersWithMutations) {
        case .ordered(let pending):
            if write.recheck != nil && pending.isStale {
                self.startDetour(Detoured(batch: batch, index: index, write: write))
            } else {
                turn.add(consume pending, batch: batch, index: index)
            }
        case .failed(let error):
            batch.answer(index, .failure(error))
        case .detour:
            self.startDetour(Detoured(batch: batch, index: index, write: write))
        }
    }

    /// The synchronous core of `Coordinator.submit`, on the loop thread. A write ordered or failed may have lost its
    /// mutations to the entries it was cut into; one sent on a detour has them all, in its order.
    /// - Parameter withMutations: whether a committed write's answer holds its mutations as resolved (else it holds
    ///   none, for an answer that only says it committed).
    private func decide(_ write: inout LoopWrite, withMutations: Bool) -> Decision {
        guard !write.mutations.isEmpty else {
            return .ordered(
                PendingWrite(view: self.coordinator.view, log: self.coordinator.log, state: .committed([], [])))
        }
        // Each mutation's shard, hashed once: nil for a spine path, which every shard holds a copy of. The
        // namespace is hashed once for them all, and each mutation routed by a borrowing step where the array's
        // buffer holds it (mapped, each was copied out whole, and its path copied out of it again).
        let router = self.coordinator.router
        let namespace = ShardHash(namespace: write.namespace)
        // Held on the stack for the decision (a write names a handful): an array of them was an allocation a write.
        return withUnsafeTemporaryAllocation(of: Int?.self, capacity: write.mutations.count) { owners in
            write.mutations.withUnsafeBufferPointer { mutations in
                for index in mutations.indices {
                    owners.initializeElement(at: index, to: router.shard(namespace: namespace, of: mutations[index]))
                }
            }
            return self.decide(&write, owners: UnsafeBufferPointer(owners), withMutations: withMutations)
        }
    }

    /// `decide(_:withMutations:)` for `write`, whose mutations' shards are `owners` (each nil for a spine path).
    private func decide(
        _ write: inout LoopWrite, owners: UnsafeBufferPointer<Int?>, withMutations: Bool
    ) -> Decision {
        do {
            if write.conditions.isEmpty, !owners.contains(nil) {
                if case let only?? = owners.first, owners.allSatisfy({ $0 == only }) {
                    return try self.writeNow(write, in: only)
                }
                return try self.commitTogether(&write, owners: owners, withMutations: withMutations)
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
        var entries = parts.map { ShardEntry.commit(id, $0.intent) }
        guard
            let committed = try self.commitTogether(
                id, anchor: anchor, participants: parts.map(\.shard), parts: &entries,
                spineValues: machine.spineValues, withMutations: withMutations)
        else { return .detour }
        machine.onCommittedTogether()
        return .ordered(committed)
    }

    /// A write of paths below the spine in several shards, with no condition (`owners`: each mutation's shard, none
    /// nil): its parts are what `TwoPhaseCommit` would cut (each shard's mutations, in the write's order, the highest
    /// shard the anchor), made here without the transaction's machine, which such a write never needs. The write's
    /// mutations are moved into the parts, not copied; they are put back, in its order, for a detour.
    private func commitTogether(
        _ write: inout LoopWrite, owners: UnsafeBufferPointer<Int?>, withMutations: Bool
    ) throws -> Decision {
        guard self.shards.count > 1, Coordinator.fitsOneRecord(write.mutations) else { return .detour }
        // Ascending and distinct (a write names a handful of shards: sorted in place, with no set built).
        var participants: [Int] = []
        participants.reserveCapacity(owners.count)
        for case let owner? in owners { participants.append(owner) }
        participants.sort()
        participants.removeSubrange(Self.uniqued(&participants)...)
        guard let anchor = participants.last else { return .detour }
        let id = self.coordinator.nextTransactionID()
        var parts = Self.parts(
            of: &write, owners: owners, id: id, plan: ShardTransactionPlan(anchor: anchor, participants: participants))
        guard
            let committed = try self.commitTogether(
                id, anchor: anchor, participants: participants, parts: &parts, spineValues: [:],
                withMutations: withMutations)
        else {
            write.mutations = Self.mutations(of: parts, participants: participants, owners: owners)
            return .detour
        }
        return .ordered(committed)
    }

    /// Each participant's part of `write` (`plan.participants`, ascending, every owner among them), made as the
    /// entry its shard logs, once: applied and encoded as it is, never copied into one. The write's mutations are
    /// moved into them, none copied: taken out of its list in order (by `popLast` from the list reversed) into a
    /// scratch buffer, then each moved from there into its part, which leaves the write none. The last part takes
    /// the write's own list, emptied with its room kept, when it holds at least half of the mutations (so the room
    /// it carries along is at most twice its own): a star's two parts then make one array and free none here, where
    /// each part made its own and the write's was freed.
    private static func parts(
        of write: inout LoopWrite, owners: UnsafeBufferPointer<Int?>, id: TransactionID, plan: ShardTransactionPlan
    ) -> [ShardEntry] {
        var all: [Mutation] = []
        swap(&all, &write.mutations)
        all.reverseByMoving()
        return withUnsafeTemporaryAllocation(of: Mutation.self, capacity: owners.count) { taken in
            var count = 0
            while let mutation = all.popLast() {
                taken.initializeElement(at: count, to: mutation)
                count += 1
            }
            let last = plan.participants.count - 1
            let keepsList = 2 * owners.reduce(0) { $1 == plan.participants[last] ? $0 + 1 : $0 } >= owners.count
            return plan.participants.indices.map { position -> ShardEntry in
                let shard = plan.participants[position]
                var mutations: [Mutation] = []
                if position == last && keepsList {
                    // The write's emptied list holds room for all of its mutations, so appending allocates nothing.
                    swap(&mutations, &all)
                    for index in owners.indices where owners[index] == shard {
                        mutations.append(taken.moveElement(from: index))
                    }
                } else {
                    // Sized to the part exactly: the array is allocated once, no larger than it holds.
                    mutations = [Mutation](
                        unsafeUninitializedCapacity: owners.reduce(0) { $1 == shard ? $0 + 1 : $0 }
                    ) { part, initialized in
                        for index in owners.indices where owners[index] == shard {
                            part.initializeElement(at: initialized, to: taken.moveElement(from: index))
                            initialized += 1
                        }
                    }
                }
                let part = ShardWrite(
                    namespace: write.namespace, mutations: consume mutations, now: write.now, origin: write.origin)
                return .commit(id, ShardIntent(write: consume part, plan: plan))
            }
        }
    }

    /// The write's mutations in its order again, from the parts `parts(of:owners:id:plan:)` cut them into (each
    /// participant's, in `participants`' order).
    private static func mutations(
        of parts: [ShardEntry], participants: [Int], owners: UnsafeBufferPointer<Int?>
    ) -> [Mutation] {
        var taken = [Int](repeating: 0, count: parts.count)
        var mutations: [Mutation] = []
        mutations.reserveCapacity(owners.count)
        for case let owner? in owners {
            if let part = participants.firstIndex(of: owner), case .commit(_, let intent) = parts[part] {
                mutations.append(intent.write.mutations[taken[part]])
                taken[part] += 1
            }
        }
        return mutations
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
    /// `participants`) at once on `anchor`: the write committed, or nil (a detour) when a participant is obstructed.
    /// The parts as resolved are joined into the write's one list only `withMutations`.
    private func commitTogether(
        _ id: TransactionID, anchor: Int, participants: [Int], parts: inout [ShardEntry], spineValues: [Path: Node],
        withMutations: Bool
    ) throws -> PendingWrite? {
        let outcome = try self.shards[anchor].commitTogetherNow(
            id, participants: participants, of: self.shards, parts: &parts, spineValues: spineValues,
            keepingResolved: withMutations)
        guard case .committed(let logged, let resolved) = outcome else { return nil }
        return PendingWrite(
            view: self.coordinator.view, log: self.coordinator.log,
            state: .committed(
                logged, withMutations ? CommitFeed.merge(resolved.map(\.edits), spineValues: spineValues) : []))
    }

    /// Queues write `index` of `batch` behind its connection's detour, if one is under way; else gives it back.
    private func joinDetour(_ batch: WriteBatch, _ index: Int, _ write: consuming LoopWrite) -> LoopWrite? {
        var unqueued = Optional(consume write)
        self.detours.withLock { detours in
            // Detours are rare: with none under way, no connection is looked up.
            guard !detours.isEmpty, detours[batch.connection] != nil, let write = unqueued.take() else { return }
            detours[batch.connection]?.append(Detoured(batch: batch, index: index, write: write))
        }
        return unqueued.take()
    }

    /// Starts a detour for the connection of `detoured`'s batch with it.
    private func startDetour(_ detoured: Detoured) {
        let connection = detoured.batch.connection
        self.detours.withLock { $0[connection] = [detoured] }
        Task { await self.runDetour(connection) }
    }

    /// Orders the detour's writes one after another through the async path, each answered when done; ends (and
    /// the connection's writes go back to the turns) once the last queued one is ordered.
    private func runDetour(_ connection: UInt64) async {
        while let next = self.nextDetoured(connection) {
            let (batch, index, write) = (next.batch, next.index, next.write)
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
    private func nextDetoured(_ connection: UInt64) -> Detoured? {
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
