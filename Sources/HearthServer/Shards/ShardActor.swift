public import HearthCore

/// The shell around one shard's state machine: it serialises the shard's commands, appends what the state machine
/// decides to the shard's log in the same turn (so log order is apply order), and parks commands that a prepared
/// transaction blocks until a transaction finishes here.
///
/// Nothing here waits for a disk: an append only queues the entry, so a hot location takes its next write while
/// earlier ones are still being made durable, and a transaction's locks last only from its prepare to its decision.
public actor ShardActor {
    public let id: Int
    private var machine: ShardStateMachine
    private let log: any ShardLog
    private var blocked: [CheckedContinuation<Void, Never>] = []

    init(machine: ShardStateMachine, log: any ShardLog) {
        self.id = machine.shard
        self.machine = machine
        self.log = log
    }

    /// What became of a single-shard write.
    enum WriteResult: Sendable {
        case appended(ShardLogPosition, [ResolvedMutation])
        /// The compare-and-set failed against every entry up to `through`.
        case conditionFailed(through: UInt64)
        case needsAllShards
    }

    /// A write wholly inside this shard; waits while a prepared transaction holds an overlapping path.
    func write(_ write: ShardWrite, condition: WriteCondition?) async -> WriteResult {
        while true {
            switch self.machine.write(write, condition: condition) {
            case .appended(let entry, let applied):
                guard case .write(_, let mutations) = applied.effect else {
                    preconditionFailure("a write entry applied as \(applied.effect)")
                }
                return .appended(self.log.append(entry, applied: applied), mutations)
            case .blocked:
                await self.waitForFinish()
            case .conditionFailed:
                return .conditionFailed(through: self.machine.lastIndex)
            case .needsAllShards:
                return .needsAllShards
            }
        }
    }

    /// Locks `paths` for a transaction and reads them; waits while another transaction holds an overlapping path.
    /// - Returns: the shard's data at each path and the index the read reflects.
    func lock(_ transaction: TransactionID, namespace: String, paths: [Path]) async -> (nodes: [Node], through: UInt64)
    {
        while !self.machine.lock(transaction, namespace: namespace, paths: paths) {
            await self.waitForFinish()
        }
        return (paths.map { self.machine.node(namespace: namespace, at: $0) }, self.machine.lastIndex)
    }

    /// Releases a transaction's read locks when it gives up before preparing.
    func unlock(_ transaction: TransactionID) {
        self.machine.unlock(transaction)
        self.resumeBlocked()
    }

    /// Phase one: logs this shard's part; waits while another transaction holds an overlapping path.
    func prepare(_ transaction: TransactionID, _ write: ShardWrite, plan: ShardTransactionPlan) async
        -> ShardLogPosition
    {
        while true {
            switch self.machine.prepare(transaction, write, plan: plan) {
            case .appended(let entry, let applied):
                return self.log.append(entry, applied: applied)
            case .blocked:
                await self.waitForFinish()
            case .conditionFailed, .needsAllShards:
                preconditionFailure("prepare of \(transaction) in shard \(self.id) cannot fail a condition")
            }
        }
    }

    /// Logs the decision (anchor) or the learned decision (other participants), finishing this shard's part.
    /// - Returns: where to wait for it, and this shard's resolved part when it committed.
    func finish(_ transaction: TransactionID, commit: Bool, isAnchor: Bool) -> (ShardLogPosition, [ResolvedMutation]) {
        let decision =
            isAnchor
            ? self.machine.decide(transaction, commit: commit) : self.machine.finish(transaction, commit: commit)
        guard case .appended(let entry, let applied) = decision else {
            preconditionFailure("finishing \(transaction) in shard \(self.id) appended nothing")
        }
        self.resumeBlocked()
        var mutations: [ResolvedMutation] = []
        if case .finished(_, _, let part?) = applied.effect { mutations = part.mutations }
        return (self.log.append(entry, applied: applied), mutations)
    }

    /// Forgets a decision once every participant has logged its finish.
    func forget(_ transaction: TransactionID) {
        self.machine.forget(transaction)
    }

    /// The prepared transactions and the decisions this shard holds (recovery resolves them).
    var transactions: (intents: [TransactionID: ShardIntent], decisions: [TransactionID: Bool]) {
        (self.machine.intents, self.machine.decisions)
    }

    private func waitForFinish() async {
        await withCheckedContinuation { self.blocked.append($0) }
    }

    private func resumeBlocked() {
        let resumed = self.blocked
        self.blocked = []
        for continuation in resumed { continuation.resume() }
    }
}
