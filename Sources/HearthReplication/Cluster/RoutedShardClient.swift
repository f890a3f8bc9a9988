import HearthCluster
import HearthCore
import HearthDatabase
import HearthSystem
import HearthWire

/// The coordinator's way to a shard in a cluster: the local actor while this node leads the shard, otherwise a
/// `ShardCall` to the leader this node's replica knows of.
///
/// A shard whose replica on this node stopped applying its log (`RaftApplyHalt`) is refused at once
/// (`ShardHaltedError`): this node could never show the command's outcome.
///
/// A command is only ever retried when it was certainly not carried out: the leader answered `notLeader` (its
/// actor appends nothing then), the call could not be sent, or no leader is known yet (an election). Those are
/// retried, following the leader a refusal names, until one takes it or `leaderWait` has passed. A call that got no
/// answer in time is not retried: its outcome is unknown, and the error says so.
struct RoutedShardClient: ShardClient {
    let node: NodeID
    let local: LocalShardClient
    let log: RaftShardLog
    let calls: ShardCalls
    /// How long a command waits for a shard to have a leader that takes it.
    let leaderWait: Duration
    /// What the leader wait is measured against and its back-off sleeps on.
    let clock: any NodeClock

    func write(shard: Int, _ write: ShardWrite, conditions: [WriteCondition]) async throws
        -> ShardActor.WriteResult
    {
        try await self.route(shard: shard, .write(write, conditions: conditions)) {
            try await self.local.write(shard: shard, write, conditions: conditions)
        } remote: { outcome in
            switch outcome {
            case .appended(let position, let resolved): .appended(position, resolved)
            case .conditionFailed(let through): .conditionFailed(through: through)
            case .needsAllShards: .needsAllShards
            case .duplicate(let through): .duplicate(through: through)
            default: nil
            }
        }
    }

    func lock(shard: Int, _ transaction: TransactionID, namespace: String, paths: [Path]) async throws
        -> ShardReadLock
    {
        try await self.route(shard: shard, .lock(transaction, namespace: namespace, paths: paths)) {
            try await self.local.lock(shard: shard, transaction, namespace: namespace, paths: paths)
        } remote: { outcome in
            guard case .locked(let read) = outcome else { return nil }
            return read
        }
    }

    func unlock(shard: Int, _ transaction: TransactionID) async {
        if self.log.acceptsAppends(shard: shard) {
            await self.local.unlock(shard: shard, transaction)
        } else if let leader = self.log.leader(shard: shard), leader != self.node {
            _ = try? await self.calls.call(.unlock(transaction), shard: shard, to: leader)
        }
    }

    func prepare(shard: Int, _ transaction: TransactionID, _ intent: ShardIntent, readLockTerm: UInt64?)
        async throws -> ShardPrepareOutcome
    {
        let command = ShardCall.Command.prepare(transaction, intent, readLockTerm: readLockTerm)
        return try await self.route(shard: shard, command) {
            try await self.local.prepare(shard: shard, transaction, intent, readLockTerm: readLockTerm)
        } remote: { outcome in
            switch outcome {
            case .prepared(let position): .prepared(position)
            case .needsAllShards: .needsAllShards
            case .duplicate(let through): .duplicate(through: through)
            default: nil
            }
        }
    }

    func decide(
        shard: Int, _ transaction: TransactionID, commit: Bool, part: ShardIntent?, spineValues: [Path: Node],
        readLockTerm: UInt64?
    ) async throws -> ShardDecideOutcome {
        let command = ShardCall.Command.decide(
            transaction, commit: commit, part: part, spineValues: spineValues, readLockTerm: readLockTerm)
        return try await self.route(shard: shard, command) {
            try await self.local.decide(
                shard: shard, transaction, commit: commit, part: part, spineValues: spineValues,
                readLockTerm: readLockTerm)
        } remote: { outcome in
            switch outcome {
            case .appended(let position, let resolved): .logged(position, resolved)
            case .needsAllShards: .needsAllShards
            case .alreadyDecided(let decided, let position): .alreadyDecided(commit: decided, at: position)
            case .duplicate(let through): .duplicate(through: through)
            default: nil
            }
        }
    }

    func finish(shard: Int, _ transaction: TransactionID, commit: Bool) async throws
        -> (ShardLogPosition, [ResolvedMutation])?
    {
        try await self.route(shard: shard, .finish(transaction, commit: commit)) {
            try await self.local.finish(shard: shard, transaction, commit: commit)
        } remote: { outcome in
            switch outcome {
            case .appended(let position, let resolved): .some((position, resolved))
            case .nothingToDo: .some(nil)
            default: nil
            }
        }
    }

    func forget(shard: Int, _ transactions: [TransactionID]) async throws -> ShardLogPosition? {
        try await self.route(shard: shard, .forget(transactions)) {
            try await self.local.forget(shard: shard, transactions)
        } remote: { outcome in
            switch outcome {
            case .appended(let position, _): .some(position)
            case .nothingToDo: .some(nil)
            default: nil
            }
        }
    }

    func confirmRefusal(shard: Int, term: UInt64) async throws -> Bool {
        try await self.route(shard: shard, .confirmRefusal(term: term)) {
            try await self.local.confirmRefusal(shard: shard, term: term)
        } remote: { outcome in
            guard case .confirmed(let isConfirmed) = outcome else { return nil }
            return isConfirmed
        }
    }

    /// The route's back-off (2 ms, doubling, at most 256 ms) on the node's clock; past the leader wait in total,
    /// the shard counts as having no leader that can serve the write.
    func pauseBeforeRerun(shard: Int, reruns: Int) async throws {
        switch Self.rerunDelay(reruns: reruns, leaderWait: self.leaderWait) {
        case .wait(let delay): try await self.clock.sleep(for: delay)
        case .giveUp(let waited): throw ShardCallError(shard: shard, kind: .noLeader, waited: waited)
        }
    }

    /// What `pauseBeforeRerun` does before rerun number `reruns` (from 1).
    enum RerunDelay: Equatable {
        case wait(Duration)
        /// The reruns so far have waited this long, the leader wait or more.
        case giveUp(waited: Duration)
    }

    static func rerunDelay(reruns: Int, leaderWait: Duration) -> RerunDelay {
        let delays = (0..<max(1, reruns)).map { Duration.milliseconds(2 << min($0, 7)) }
        let waited = delays.dropLast().reduce(Duration.zero, +)
        guard waited < leaderWait, let delay = delays.last else { return .giveUp(waited: waited) }
        return .wait(delay)
    }

    /// Runs `command` on the shard's leader: locally while this node leads, else on the leader's node, where
    /// `remote` turns its answer into the result (nil: an answer that does not fit the command).
    private func route<Result: Sendable>(
        shard: Int, _ command: ShardCall.Command, local: () async throws -> Result,
        remote: (ShardReply.Outcome) -> Result?
    ) async throws -> Result {
        try self.log.refuseIfHalted(shard: shard)
        let started = self.clock.now
        var delay = Duration.milliseconds(2)
        var named: NodeID?
        while true {
            if self.log.acceptsAppends(shard: shard) {
                do {
                    return try await local()
                } catch is ShardNotLeaderError {
                    named = nil
                }
            } else if let leader = named ?? self.log.leader(shard: shard), leader != self.node {
                named = nil
                do {
                    let outcome = try await self.calls.call(command, shard: shard, to: leader)
                    switch outcome {
                    case .notLeader(let other):
                        named = other == leader ? nil : other
                    case .failed(let message):
                        throw ShardCallError(
                            shard: shard, kind: .failed(leader, message), waited: self.clock.now - started)
                    case .readLockLost:
                        throw ShardReadLockLostError(shard: shard)
                    default:
                        guard let result = remote(outcome) else {
                            throw ShardCallError(
                                shard: shard, kind: .failed(leader, "it answered \(outcome), which does not fit"),
                                waited: self.clock.now - started)
                        }
                        return result
                    }
                } catch let error as ShardCallError {
                    guard case .unreachable = error.kind else { throw error }
                }
            }
            let waited = self.clock.now - started
            guard waited < self.leaderWait else {
                throw ShardCallError(shard: shard, kind: .noLeader, waited: waited)
            }
            try await self.clock.sleep(for: delay)
            delay = min(delay * 2, .milliseconds(100))
        }
    }
}
