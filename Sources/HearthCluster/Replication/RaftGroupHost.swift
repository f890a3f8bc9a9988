import HearthSystem
import Synchronization

/// Drives one Raft group's replica on this node: inputs (ticks, peers' messages, proposals) go to the `RaftNode`
/// under a lock from any thread, and one task (`run()`) works through its Readies in the order the contract asks —
/// install a received snapshot, persist, send, answer snapshot requests, apply, advance.
///
/// A received snapshot goes to the application (which stores it durably) before the log records that replace the
/// stored log with it: a crash between the two leaves a stored snapshot newer than the log, which a restart can
/// reconcile, never a log that points past every stored snapshot.
///
/// Inputs keep arriving while a Ready is being made durable (the node allows it), so a hot leader keeps taking
/// proposals during an fsync and the next Ready carries all of them: with every group persisting through the node's
/// one write-ahead log, one fsync covers every group's batch.
///
/// Linearizable reads ask the host for a read index (`RaftGroupHost+ReadIndex.swift`); concurrent requests share one
/// round, which the run loop answers from the Readies' read states.
package final class RaftGroupHost: Sendable {
    /// What the host needs from the node around it.
    package struct IO: Sendable {
        /// Appends the records to the node's write-ahead log and returns once they are durable.
        package var persist: @Sendable ([RaftLogRecord]) async throws -> Void
        /// Sends a message to a peer; loss is fine.
        package var send: @Sendable (RaftMessage) -> Void
        /// Installs `snapshot` when present (storing it durably before returning), then applies `entries`
        /// (committed, in order). A snapshot comes alone, before the Ready's records are persisted; entries come
        /// after. Throwing stops the host: the replica can no longer keep its state.
        package var apply: @Sendable (_ snapshot: RaftSnapshot?, _ entries: [RaftEntry]) async throws -> Void
        /// The application's latest snapshot, for followers too far behind for the log.
        package var latestSnapshot: @Sendable () -> RaftSnapshot?
        /// Role, leader or term changed.
        package var observe: @Sendable (RaftSoftState) -> Void

        package init(
            persist: @escaping @Sendable ([RaftLogRecord]) async throws -> Void,
            send: @escaping @Sendable (RaftMessage) -> Void,
            apply: @escaping @Sendable (RaftSnapshot?, [RaftEntry]) async throws -> Void,
            latestSnapshot: @escaping @Sendable () -> RaftSnapshot?,
            observe: @escaping @Sendable (RaftSoftState) -> Void
        ) {
            self.persist = persist
            self.send = send
            self.apply = apply
            self.latestSnapshot = latestSnapshot
            self.observe = observe
        }
    }

    /// The group this host drives.
    package let group: RaftGroupID
    /// The group's tunables, for the bounds of a folded append.
    private let configuration: RaftConfiguration
    let node: Lock<RaftNode>
    private let io: IO
    private let wakeups: AsyncStream<Void>
    let wake: AsyncStream<Void>.Continuation
    /// Read-index requests and the callers waiting for them.
    let reads: Lock<ReadRequests>
    /// Set by `rewriteDurableState()`; the run loop rewrites the group's records once no Ready is pending.
    private let rewriteRequested = Atomic(false)
    /// Whether the next rewrite writes the log's entries after its cut again too (`rewriteDurableState`).
    private let entriesRewriteRequested = Atomic(false)
    /// Set when the application could not apply a committed entry (`RaftApplyHalt`): from then on the replica
    /// takes no inputs and makes no Readies.
    private let halted = Lock<RaftApplyHalt?>(nil)

    package init(node: RaftNode, io: IO) {
        self.group = node.group
        self.configuration = node.configuration
        self.node = Lock(node)
        self.io = io
        (self.wakeups, self.wake) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
        self.reads = Lock(
            ReadRequests(
                rounds: ReadIndexRounds(
                    nonce: UInt64.random(in: .min ... .max), retryTicks: 3 * node.configuration.heartbeatTicks)))
    }

    /// Why the replica stopped, when the application could not apply a committed entry; nil while it runs.
    package var halt: RaftApplyHalt? { self.halted.withLock { $0 } }

    /// Role, leader and term as the node stands.
    package var softState: RaftSoftState { self.node.withLock { $0.softState } }

    /// Commit and applied indexes, and (on the leader) each follower's replication state.
    package var status: (commit: UInt64, applied: UInt64, followers: [RaftFollowerStatus]) {
        self.node.withLock { ($0.log.committed, $0.log.applied, $0.followers) }
    }

    /// How far the group has committed as far as this replica knows: its own commit index, or the leader's when a
    /// leader told it of a higher one (a replica catching up commits only what it holds, so its own index says
    /// nothing of how far behind it is).
    package var knownCommit: UInt64 { self.node.withLock { max($0.log.committed, $0.leaderCommit) } }

    /// Whether the replica heard from its group's leader within the last election timeout (a leader: whether it
    /// still has its quorum's support). A replica cut off from the leader keeps believing in it until then.
    package var hearsLeader: Bool { self.node.withLock { $0.inLease } }

    /// Whether the replica leads and is handing leadership over (it takes no proposals until that ends).
    package var isTransferring: Bool { self.node.withLock { $0.role == .leader && $0.transferee != nil } }

    /// The replica set in effect on this replica: its log's latest membership entry, committed or not (a leader
    /// proposes the next change only once that one has committed).
    package var membership: RaftMembership { self.node.withLock { $0.membership } }

    /// The replica set as of this replica's commit index: a change shown here can no longer be undone.
    package var committedMembership: RaftMembership {
        self.node.withLock { $0.membership(at: $0.log.committed) }
    }

    /// The index of the last entry in the replica's log.
    package var lastIndex: UInt64 { self.node.withLock { $0.log.lastIndex } }

    /// The term of the entry at `index`, if the log still holds it.
    package func term(at index: UInt64) -> UInt64? {
        self.node.withLock { $0.log.term(at: index) }
    }

    /// The cut of the replica's latest snapshot: its log holds only the entries after it.
    package var snapshotCut: RaftSnapshotMetadata { self.node.withLock { $0.log.snapshot } }

    /// What a snapshot of the application at committed `index` must carry: the index, its term and the replica set
    /// in effect there; nil when the log no longer holds (or does not yet commit) `index`.
    package func snapshotMetadata(at index: UInt64) -> RaftSnapshotMetadata? {
        self.node.withLock { node in
            guard index <= node.log.committed, let term = node.log.term(at: index) else { return nil }
            var membership = node.log.snapshot.membership
            for entry in node.log.entries where entry.index <= index {
                if case .membership(let change) = entry.payload { membership = change }
            }
            return RaftSnapshotMetadata(index: index, term: term, membership: membership)
        }
    }

    /// The entries the log holds from its first through `index`.
    package func entries(through index: UInt64) -> [RaftEntry] {
        self.node.withLock { node in node.log.entries.filter { $0.index <= index } }
    }

    /// Stops the replica at `halt` as the run loop does when the application cannot apply a committed entry; used
    /// when recovery already found that entry, before the replica runs.
    package func halt(_ halt: RaftApplyHalt) {
        self.halted.withLock { $0 = halt }
        self.stopReads()
    }

    /// One tick of the group's logical clock (the node ticks every group on one timer).
    package func tick() {
        guard self.halt == nil else { return }
        self.node.withLock { $0.tick() }
        self.wake.yield()
        self.updateReads { $0.tick() }
    }

    /// A message from a peer for this group.
    package func step(_ message: RaftMessage) {
        guard self.halt == nil else { return }
        self.node.withLock { $0.step(message) }
        self.wake.yield()
    }

    /// Proposes `data`; on the leader the answer carries the entry's index and term at once.
    package func propose(_ data: [UInt8]) -> RaftProposal {
        guard self.halt == nil else { return .notLeader(leaderHint: nil) }
        let proposal = self.node.withLock { $0.propose(data) }
        self.wake.yield()
        return proposal
    }

    /// Runs a node-level operation on the replica (a configuration change, a transfer, a compaction).
    package func withNode<T>(_ body: (inout RaftNode) throws(RaftError) -> T) throws(RaftError) -> T {
        let result = try self.node.withLock { node throws(RaftError) -> T in try body(&node) }
        self.wake.yield()
        return result
    }

    /// Works through Readies until cancelled or until persisting fails (the node can no longer make anything
    /// durable and must stop), which it then throws. A `RaftApplyHalt` from the application (applying committed
    /// entries, or installing a snapshot) stops this replica alone: the loop makes no more Readies and waits to be
    /// cancelled.
    package func run() async throws {
        for await _ in self.wakeups {
            while self.halt == nil, let ready = self.node.withLock({ $0.ready() }) {
                try Task.checkCancellation()
                if let softState = ready.softState {
                    self.io.observe(softState)
                    self.updateReads { $0.leaderChanged() }
                }
                if let snapshot = ready.snapshot {
                    // A snapshot this release cannot read halts the replica before its Ready is persisted: the log
                    // never records a cut whose state the application does not hold.
                    do {
                        try await self.io.apply(snapshot, [])
                    } catch let halt as RaftApplyHalt {
                        self.halt(halt)
                        break
                    }
                }
                // A leader's appends go first, so its followers write while it writes.
                for message in self.coalesced(ready.messagesBeforePersisting) { self.io.send(message) }
                let records = RaftGroupStorage.records(for: ready, group: self.group)
                if !records.isEmpty { try await self.io.persist(records) }
                for message in self.coalesced(ready.messagesAfterPersisting) { self.io.send(message) }
                for read in ready.readStates {
                    self.updateReads { $0.answer(context: read.context, index: read.index) }
                }
                self.answerSnapshotRequests(ready.snapshotRequests)
                if !ready.committedEntries.isEmpty {
                    do {
                        try await self.io.apply(nil, ready.committedEntries)
                    } catch let halt as RaftApplyHalt {
                        self.halted.withLock { $0 = halt }
                        self.stopReads()
                        break
                    }
                }
                self.node.withLock { $0.advance(ready) }
            }
            try await self.rewriteIfRequested()
            if Task.isCancelled { return }
        }
    }

    /// A Ready's messages with each peer's runs of continuing appends (or of acceptances) folded into one
    /// (`RaftMessage.coalesced`): a leader that took several proposals, or learned a new commit index, while its
    /// last Ready was made durable sends each follower one append, and a follower answers it once.
    private func coalesced(_ messages: [RaftMessage]) -> [RaftMessage] {
        RaftMessage.coalesced(
            messages, maxEntries: self.configuration.maxAppendEntries, maxBytes: self.configuration.maxAppendBytes)
    }

    /// Asks the run loop to write the group's hard state and snapshot marker again, so that the write-ahead log can
    /// drop the old segment holding the previous copies (an idle group writes nothing else; `RaftLogRetention`).
    /// With `includingEntries`, the entries the log holds after its cut are written again too: an idle shard's
    /// group keeps the entries since its older stored snapshot, and they must not pin old segments forever.
    package func rewriteDurableState(includingEntries: Bool = false) {
        if includingEntries { self.entriesRewriteRequested.store(true, ordering: .releasing) }
        self.rewriteRequested.store(true, ordering: .releasing)
        self.wake.yield()
    }

    /// Persists the current hard state and snapshot marker when asked to and no Ready is pending (then the hard
    /// state is exactly the persisted one); with a Ready pending, tries again after it.
    private func rewriteIfRequested() async throws {
        guard self.rewriteRequested.exchange(false, ordering: .acquiringAndReleasing) else { return }
        let durable: (RaftHardState, RaftSnapshotMetadata, [RaftEntry])? = self.node.withLock { node in
            node.hasReady ? nil : (node.hardState, node.log.snapshot, node.log.entries)
        }
        guard let (hardState, snapshot, entries) = durable else {
            self.rewriteDurableState()
            return
        }
        // Same order as a Ready's records: the marker, the entries after it, then the hard state that may point
        // into them. With no Ready pending, every entry the log holds is already durable: this writes them again.
        var records = [RaftGroupStorage.snapshotRecord(snapshot, group: self.group)]
        if self.entriesRewriteRequested.exchange(false, ordering: .acquiringAndReleasing), let first = entries.first {
            records.append(RaftGroupStorage.entriesRecord(entries, first: first.index, group: self.group))
        }
        var bytes: [UInt8] = []
        hardState.encode(to: &bytes)
        records.append(.hardState(group: Int(self.group.rawValue), bytes: bytes))
        try await self.io.persist(records)
    }

    /// Stops `run()` after the Ready in hand; read-index requests still waiting fail.
    package func stop() {
        self.wake.finish()
        self.stopReads()
    }

    /// Sends each follower that asked the application's latest snapshot; without one, reports the attempt failed
    /// so the leader asks again later.
    private func answerSnapshotRequests(_ peers: [NodeID]) {
        guard !peers.isEmpty else { return }
        let snapshot = self.io.latestSnapshot()
        self.node.withLock { node in
            for peer in peers {
                guard let snapshot else {
                    node.reportSnapshot(to: peer, succeeded: false)
                    continue
                }
                do {
                    try node.sendSnapshot(snapshot, to: peer)
                } catch {
                    // Leadership moved on since the request: the new leader serves that follower.
                    node.reportSnapshot(to: peer, succeeded: false)
                }
            }
        }
        self.wake.yield()
    }
}
