import HearthCore
import HearthTestKit
import HearthWire

@testable import HearthDatabase
@testable import HearthServer

/// A random history of one node's shards, made by their state machines as a leader makes it: single-shard writes,
/// multi-path updates, increments, priorities, deletions, transactions committed together, two-phase transactions
/// whose parts other writes overtake, and spine writes. The records (each entry, or a transaction's parts committed
/// together) come out in log order, as the node's log hands them to the read view; made in turns, as the write loop
/// makes them, their subtrees are taken once per turn, at its end (`ShardApplied.captureTurn`).
struct RandomShardHistory {
    let router: ShardRouter
    private(set) var machines: [ShardStateMachine]
    /// The log's records so far, oldest first, each the entries it holds (without the turn under way).
    private(set) var records: [[ShardApplied]] = []
    /// In turns: the records of the turn under way, whose subtrees are not taken yet; nil when not in turns.
    private var turn: [[ShardApplied]]?
    private var random: SeededRandom
    /// Where turns end: apart from `random`, so a seed makes the same operations in turns or not.
    private var turnEnds: SeededRandom
    private var nextTransaction: UInt64 = 1
    /// A two-phase transaction prepared and not yet finished everywhere: its anchor's part waits to be decided, then
    /// the others to be finished.
    private var pending: (id: TransactionID, commit: Bool, anchor: Int, parts: [(shard: Int, intent: ShardIntent)])?

    /// - Parameter turns: whether the history is made in turns of eight operations on average, as the write loop
    ///   makes it (the machines `defersSubtrees`).
    init(router: ShardRouter, seed: UInt64, turns: Bool = false) {
        self.router = router
        self.machines = (0..<router.shardCount).map { ShardStateMachine(shard: $0, spineDepth: router.shardDepth) }
        self.random = SeededRandom(seed: seed)
        self.turnEnds = SeededRandom(seed: seed ^ 0x7e57)
        if turns {
            for shard in self.machines.indices { self.machines[shard].defersSubtrees = true }
            self.turn = []
        }
    }

    /// Makes `count` random operations (some are refused by the machines and leave no record), then finishes the
    /// transaction left pending, so the view can end quiescent, and the turn under way.
    mutating func run(_ count: Int) throws {
        for _ in 0..<count {
            try self.step()
            if self.turn != nil, Int.random(in: 0..<8, using: &self.turnEnds) == 0 { self.endTurn() }
        }
        while self.pending != nil { self.advancePending() }
        self.endTurn()
    }

    /// Logs a record: at once, or in the turn under way.
    private mutating func log(_ record: [ShardApplied]) {
        if self.turn != nil {
            self.turn?.append(record)
        } else {
            self.records.append(record)
        }
    }

    /// Ends the turn under way: takes its subtrees from the machines as they stand, and logs its records.
    private mutating func endTurn() {
        guard let turn = self.turn, !turn.isEmpty else { return }
        let machines = self.machines
        var entries = turn.flatMap { $0 }
        ShardApplied.captureTurn(&entries) { shard, namespace in machines[shard].trees[namespace] ?? .empty }
        // Back into the turn's records, each the entries it held.
        var start = 0
        for record in turn {
            self.records.append(Array(entries[start..<(start + record.count)]))
            start += record.count
        }
        self.turn = []
    }

    private mutating func step() throws {
        switch Int.random(in: 0..<20, using: &self.random) {
        case 0..<9:
            let mutations = try self.crossShardMutations()
            try self.write(Bool.random(using: &self.random) ? mutations : [mutations[0]])
        case 9..<13:
            try self.together(self.crossShardMutations())
        case 13..<15 where self.pending == nil:
            try self.startTwoPhase(self.crossShardMutations())
        case 15..<17:
            self.advancePending()
        case 17:
            let spine = self.pick(["a", "b"])
            let value = Int.random(in: 0..<4, using: &self.random) == 0 ? "null" : self.object()
            try self.together([Fixture.set(spine, value)])
        default:
            let hot = self.pick(["a/x0", "a/x1"])
            try self.write([self.deepMutation(subtree: hot)])
        }
    }

    private mutating func pick(_ choices: [String]) -> String {
        choices[Int.random(in: 0..<choices.count, using: &self.random)]
    }

    /// A small object of numbers, for spine and subtree writes.
    private mutating func object() -> String {
        let key = self.pick(["x0", "x1", "x2", "x3"])
        return #"{"\#(key)":{"n":\#(Int.random(in: 0..<9, using: &self.random))}}"#
    }

    /// A mutation below the shard depth: under `subtree`, or under a random one.
    private mutating func deepMutation(subtree: String?) throws -> Mutation {
        let subtree = subtree ?? "\(self.pick(["a", "b"]))/\(self.pick(["x0", "x1", "x2", "x3", "x4", "x5"]))"
        let leaf = self.pick(["n", "m", "c", "deep/k", "deep/j"])
        let path = "\(subtree)/\(leaf)"
        switch Int.random(in: 0..<10, using: &self.random) {
        case 0..<3:
            return try Fixture.set(path, #"{".sv":{"increment":\#(Int.random(in: -3...5, using: &self.random))}}"#)
        case 3: return try Fixture.set(path, "null")
        case 4: return try Fixture.set(subtree, self.object())
        case 5:
            return .setPriority(Fixture.path(path), try Fixture.value("\(Int.random(in: 0..<4, using: &self.random))"))
        default: return try Fixture.set(path, "\(Int.random(in: 0..<100, using: &self.random))")
        }
    }

    /// Two or three mutations in distinct subtrees (no path of one write above another's, as the front ends
    /// require), usually of distinct shards.
    private mutating func crossShardMutations() throws -> [Mutation] {
        var mutations: [Mutation] = []
        var subtrees: Set<String> = []
        for _ in 0..<Int.random(in: 2...3, using: &self.random) {
            let subtree = "\(self.pick(["a", "b"]))/\(self.pick(["x0", "x1", "x2", "x3", "x4", "x5"]))"
            guard subtrees.insert(subtree).inserted else { continue }
            mutations.append(try self.deepMutation(subtree: subtree))
        }
        return mutations
    }

    /// A write the machines take in one shard; written as a transaction when it spans shards or lands on the spine.
    private mutating func write(_ mutations: [Mutation]) throws {
        let shards = Set(mutations.flatMap { self.router.shards(namespace: "default", mutation: $0.path) })
        guard shards.count == 1, let shard = shards.first else { return try self.together(mutations) }
        let write = ShardWrite(namespace: "default", mutations: mutations, now: 1_000)
        if case .appended(_, let applied) = self.machines[shard].write(write, conditions: []) {
            self.log([applied])
        }
    }

    /// The parts of a transaction of `mutations`, as the coordinator cuts them, with its whole spine values.
    private mutating func parts(_ mutations: [Mutation])
        -> (id: TransactionID, parts: [(shard: Int, intent: ShardIntent)], spineValues: [Path: Node])?
    {
        let id = TransactionID(rawValue: self.nextTransaction)
        self.nextTransaction += 1
        var machine = TwoPhaseCommit(
            transaction: id, namespace: "default", mutations: mutations, conditions: [], now: 1_000,
            router: self.router, together: true)
        guard case .commitTogether(_, let parts) = machine.start().first else { return nil }
        let isFree = parts.allSatisfy { part in
            self.machines[part.shard].obstacleToCommit(id, part.intent) == nil
                && self.machines[part.shard].unrepresentableIncrement(in: part.intent.write) == nil
        }
        return isFree ? (id, parts, machine.spineValues) : nil
    }

    /// Every part of a transaction committed at once, in one record (the last part carries the spine values).
    private mutating func together(_ mutations: [Mutation]) throws {
        guard let (id, parts, spineValues) = self.parts(mutations) else { return }
        var record: [ShardApplied] = []
        for (number, part) in parts.enumerated() {
            guard case .appended(_, var applied) = self.machines[part.shard].commit(id, part.intent) else {
                preconditionFailure("shard \(part.shard) refused a part with no obstacle")
            }
            if number == parts.count - 1, case .finished(let id, let decision, var committed?) = applied.effect {
                committed.spineValues = spineValues
                applied.effect = .finished(id, decision: decision, committed: committed)
            }
            record.append(applied)
        }
        self.log(record)
    }

    /// Prepares every part but the anchor's, each in a record of its own; the decision and finishes come later
    /// (`advancePending`), with other writes between them. One in ten aborts.
    private mutating func startTwoPhase(_ mutations: [Mutation]) throws {
        guard let (id, parts, _) = self.parts(mutations), let anchor = parts.first?.intent.plan.anchor, parts.count > 1
        else {
            return
        }
        for part in parts where part.shard != anchor {
            guard case .appended(_, let applied) = self.machines[part.shard].prepare(id, part.intent) else {
                preconditionFailure("shard \(part.shard) refused to prepare a part with no obstacle")
            }
            self.log([applied])
        }
        self.pending = (id, Int.random(in: 0..<10, using: &self.random) != 0, anchor, parts)
    }

    /// The pending transaction's next step: the anchor's decision, else one participant's finish.
    private mutating func advancePending() {
        guard let pending = self.pending else { return }
        if let anchorPart = pending.parts.first(where: { $0.shard == pending.anchor }) {
            let decision = self.machines[pending.anchor].decide(
                pending.id, commit: pending.commit, part: anchorPart.intent)
            guard case .appended(_, let applied) = decision else {
                preconditionFailure("the anchor refused to decide")
            }
            self.log([applied])
            self.pending?.parts.removeAll { $0.shard == pending.anchor }
            return
        }
        guard let next = pending.parts.first else { return self.pending = nil }
        guard case .appended(_, let applied) = self.machines[next.shard].finish(pending.id, commit: pending.commit)
        else { preconditionFailure("shard \(next.shard) refused to finish") }
        self.log([applied])
        self.pending?.parts.removeFirst()
        if self.pending?.parts.isEmpty == true { self.pending = nil }
    }

    /// Every shard's entries in log order, each shard's apart (as a cluster's shards hand them over).
    var entriesByShard: [[ShardApplied]] {
        var byShard = [[ShardApplied]](repeating: [], count: self.router.shardCount)
        for record in self.records {
            for applied in record { byShard[applied.shard].append(applied) }
        }
        return byShard
    }

    /// The union of every shard's tree of `namespace`: the whole namespace as the shards hold it.
    func union(_ namespace: String = "default") -> Node {
        Node.union(self.machines.map { $0.trees[namespace] ?? .empty })
    }
}
