import HearthSystem

/// Drives every Raft group of a node in turns (Dragonboat's shape), from two tasks: the driver and the finisher.
///
/// A turn (the driver) takes every group marked on the node's `RaftTurnSignal` that has no turn in flight, begins
/// each group's Ready (the leaders' appends leave at once) and appends all their entries and hard states to the
/// write-ahead log in one go, so one write and one fsync cover them; then it hands the turn to the finisher and takes
/// the next marks at once. The finisher waits until a turn's records are durable (not at all when every one of them
/// is a hard state that only moves the commit index), then finishes each group's Ready: sends what depended on the
/// records, applies the committed entries, advances the replica.
///
/// So the log is written while the previous turn's fsync runs, as with a task per group, but a turn costs one
/// wake-up and one durability wait however many groups it holds, and the messages it sends to a peer leave back to
/// back, so the peer link carries them in one socket write. A group has at most one turn in flight: one marked
/// meanwhile waits, and the finisher marks it again once its turn is done.
struct RaftTurnDriver: Sendable {
    /// A begun turn on its way to the finisher: the sequence number to wait for (0: none) and each group's part.
    private struct Flight: Sendable {
        let sequence: UInt64
        let turns: [(host: RaftGroupHost, turn: RaftGroupHost.Turn)]
    }

    /// The groups with a turn in flight, and those marked while it flew.
    private struct InFlight: Sendable {
        var groups: Set<RaftGroupID> = []
        var marked: Set<RaftGroupID> = []
    }

    /// The node's groups, by id.
    let hosts: [RaftGroupID: RaftGroupHost]
    /// Where the groups mark themselves when they have input.
    let signal: RaftTurnSignal
    /// Appends the first records, then the second, to the node's write-ahead log; returns the sequence number to
    /// wait for before going on with what depends on the second (0 for none; `RaftLogWriter.append`).
    let append: @Sendable (_ lazily: [RaftLogRecord], _ durably: [RaftLogRecord]) -> UInt64
    /// Returns once the log holds everything through the sequence number durably.
    let waitUntilDurable: @Sendable (UInt64) async throws -> Void

    /// Runs turns until the signal finishes or the task is cancelled.
    /// - Throws: the first persistence failure (the node must stop: it can no longer make anything durable), or
    ///   what installing a snapshot or applying entries throws other than a `RaftApplyHalt`.
    func run() async throws {
        let inFlight = Lock(InFlight())
        let (flights, handOff) = AsyncStream.makeStream(of: Flight.self)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { handOff.finish() }
                for await _ in self.signal.wakeups {
                    while true {
                        let groups = self.signal.take()
                        guard !groups.isEmpty else { break }
                        if let flight = try await self.begin(groups, inFlight: inFlight) { handOff.yield(flight) }
                    }
                    if Task.isCancelled { return }
                }
            }
            group.addTask {
                for await flight in flights {
                    try await self.finish(flight, inFlight: inFlight)
                }
            }
            defer { group.cancelAll() }
            try await group.next()
            try await group.next()
        }
    }

    /// Begins the turn of every group in `groups` without one in flight (the others are noted, to be marked again
    /// once theirs is done) and appends all their records; nil when none had work.
    private func begin(_ groups: [RaftGroupID], inFlight: Lock<InFlight>) async throws -> Flight? {
        let free = inFlight.withLock { state in
            groups.filter { group in
                guard state.groups.contains(group) else { return true }
                state.marked.insert(group)
                return false
            }
        }
        var turns: [(host: RaftGroupHost, turn: RaftGroupHost.Turn)] = []
        var lazily: [RaftLogRecord] = []
        var durably: [RaftLogRecord] = []
        for group in free {
            guard let host = self.hosts[group] else { continue }
            guard let turn = try await host.beginTurn() else {
                if let records = host.rewriteRecords() { durably += records }
                continue
            }
            if turn.mustSync {
                durably += turn.records
            } else {
                lazily += turn.records
            }
            turns.append((host, turn))
        }
        let sequence = self.append(lazily, durably)
        guard !turns.isEmpty else { return nil }
        inFlight.withLock { state in
            for (host, _) in turns { state.groups.insert(host.group) }
        }
        return Flight(sequence: sequence, turns: turns)
    }

    /// Waits until `flight`'s records are durable, sends every group's messages that depended on them (back to back,
    /// so each peer link takes them in one socket write), then finishes each group's Ready; marks again every group
    /// that still has work (input came meanwhile, its own write completed a quorum, or a rewrite waits).
    private func finish(_ flight: Flight, inFlight: Lock<InFlight>) async throws {
        if flight.sequence > 0 { try await self.waitUntilDurable(flight.sequence) }
        for (host, turn) in flight.turns { host.sendAfterPersisting(turn) }
        for (host, turn) in flight.turns {
            let runs = try await host.finishTurn(turn)
            let wasMarked = inFlight.withLock { state in
                state.groups.remove(host.group)
                return state.marked.remove(host.group) != nil
            }
            guard runs else { continue }
            if wasMarked || host.wantsRewrite || host.node.withLock({ $0.hasReady }) { self.signal.mark(host.group) }
        }
    }
}
