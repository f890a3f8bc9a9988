import HearthCore
import HearthTestKit
import HearthWire
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// Random command sequences against one shard's state machine and a plain reference model: single-shard writes (sets,
/// deletes, priorities, increments, timestamps, compare-and-set with right and wrong hashes) interleaved with
/// transactions that lock, prepare, decide or finish, and unlock, conflicting ones included; the model also keeps the
/// spine nodes that may carry a priority, so it predicts which writes must run over every shard. Then the appended
/// entries replayed on a fresh machine, or on a shard snapshot taken part-way, must give the same state.
@Suite struct ShardStateMachineModelTests {
    static let spineDepth = 2
    static let namespaces = ["default", "default", "default", "other"]

    /// The model's view of one transaction known to the shard.
    struct ModelTransaction {
        var namespace: String
        /// Read-locked paths (before the prepare).
        var locked: [Path]?
        /// The prepared write (after the prepare).
        var prepared: ModelWrite?
    }

    struct ModelWrite {
        var namespace: String
        var mutations: [ModelMutation]
        var now: Int64

        var paths: [Path] { self.mutations.map(\.path) }

        func shardWrite() throws -> ShardWrite {
            ShardWrite(
                namespace: self.namespace, mutations: try self.mutations.map { try $0.mutation() }, now: self.now)
        }
    }

    enum ModelMutation {
        case set(Path, ValueSpec)
        case setPriority(Path, PrioritySpec)

        var path: Path {
            switch self {
            case .set(let path, _), .setPriority(let path, _): path
            }
        }

        /// True for exactly `{".sv": {"increment": delta}}`: bare increments of one counter commute.
        var isBareIncrement: Bool {
            if case .set(_, .increment(_, nil)) = self { true } else { false }
        }

        /// True when the two touch overlapping paths and do not merely increment the same counter.
        func conflicts(with other: ModelMutation) -> Bool {
            guard self.path.contains(other.path) || other.path.contains(self.path) else { return false }
            return !(self.path == other.path && self.isBareIncrement && other.isBareIncrement)
        }

        func mutation() throws -> Mutation {
            switch self {
            case .set(let path, let spec): .set(path, try spec.writeValue(at: path))
            case .setPriority(let path, let spec): .setPriority(path, try spec.writeValue())
            }
        }
    }

    /// The machine under test, the model beside it, and the entries appended so far.
    struct Run {
        var machine = ShardStateMachine(shard: 3, spineDepth: ShardStateMachineModelTests.spineDepth)
        var models: [String: LeafModel] = [:]
        /// Per namespace: spine paths a priority was set on and not removed since (the machine's marks).
        var marks: [String: Set<Path>] = [:]
        var transactions: [TransactionID: ModelTransaction] = [:]
        /// The decisions this shard anchors and has not forgotten.
        var decisions: [TransactionID: Bool] = [:]
        var entries: [ShardEntry] = []
        var random: SeededRandom
        var nextTransaction: UInt64 = 1
        var clock: Int64 = 1_000
        let seed: UInt64
        var step = 0
        var counts: [String: Int] = [:]

        var context: String { "seed \(self.seed) step \(self.step)" }

        /// True when another transaction holds a path conflicting with one of `mutations` (bare increments of one
        /// counter do not conflict) or overlapping one of `reads`; a read lock conflicts with every overlapping path.
        func isLocked(namespace: String, mutations: [ModelMutation], reads: [Path], except: TransactionID?) -> Bool {
            func overlaps(_ a: Path, _ b: Path) -> Bool { a.contains(b) || b.contains(a) }
            return self.transactions.contains { transaction, state in
                guard transaction != except, state.namespace == namespace else { return false }
                if let prepared = state.prepared {
                    return prepared.mutations.contains { held in
                        mutations.contains { $0.conflicts(with: held) } || reads.contains { overlaps(held.path, $0) }
                    }
                }
                let paths = mutations.map(\.path) + reads
                return (state.locked ?? []).contains { a in paths.contains { b in overlaps(a, b) } }
            }
        }

        /// Applies a write to the model the way a shard does: resolve everything first, then apply in order.
        mutating func applyToModel(_ write: ModelWrite) -> [ResolvedMutation] {
            var model = self.models[write.namespace] ?? LeafModel()
            let before = model
            var resolved: [ResolvedMutation] = []
            for mutation in write.mutations {
                switch mutation {
                case .set(let path, let spec):
                    let value = before.resolve(spec, at: path, now: write.now)
                    model.set(path, to: value)
                    resolved.append(.set(path, value.node(at: .root)))
                case .setPriority(let path, let spec):
                    let priority = before.resolve(spec, at: path, now: write.now)
                    model.setPriority(path, to: priority)
                    resolved.append(.setPriority(path, priority))
                    if path.count < ShardStateMachineModelTests.spineDepth {
                        if priority == nil {
                            self.marks[write.namespace]?.remove(path)
                        } else {
                            self.marks[write.namespace, default: []].insert(path)
                        }
                    }
                }
            }
            self.models[write.namespace] = model
            return resolved
        }

        /// Checks the machine's trees and bookkeeping against the model.
        func checkState() {
            for namespace in Set(Self.allNamespaces) {
                let expected = (self.models[namespace] ?? LeafModel()).node(at: .root)
                #expect(self.machine.node(namespace: namespace, at: .root) == expected, "\(self.context) \(namespace)")
            }
            #expect(self.machine.lastIndex == UInt64(self.entries.count), "\(self.context): indexes are dense")
            let prepared = Set(self.transactions.filter { $0.value.prepared != nil }.keys)
            let locked = Set(self.transactions.filter { $0.value.prepared == nil }.keys)
            #expect(Set(self.machine.intents.keys) == prepared, "\(self.context)")
            #expect(Set(self.machine.readLocks.keys) == locked, "\(self.context)")
        }

        static let allNamespaces = ShardStateMachineModelTests.namespaces
    }

    @Test(arguments: 1...20 as ClosedRange<UInt64>)
    func randomCommandsMatchTheModelAndReplayIdentically(seed: UInt64) async throws {
        let run = try await SimulationLane.run { try Self.randomRun(seed: seed) }
        for kind in ["appended", "blocked", "conditionFailed", "needsAllShards", "prepared", "decided", "committed"] {
            #expect(run.counts[kind, default: 0] > 0, "seed \(seed) never exercised \(kind): \(run.counts)")
        }
        try Self.checkReplay(run)
    }

    /// A snapshot taken after any entry, decoded and then fed the rest of the log, ends where the machine did.
    @Test(arguments: 1...12 as ClosedRange<UInt64>)
    func aSnapshotAtAnyPointContinuesLikeTheMachine(seed: UInt64) async throws {
        var run = try await SimulationLane.run { try Self.randomRun(seed: seed) }
        let cut = Int.random(in: 0...run.entries.count, using: &run.random)
        var replica = ShardStateMachine(shard: 3, spineDepth: Self.spineDepth)
        for (offset, entry) in run.entries.prefix(cut).enumerated() {
            _ = try replica.apply(entry, at: UInt64(offset + 1))
        }
        let decisions: [TransactionID: Bool] = [TransactionID(rawValue: 7): true, TransactionID(rawValue: 9): false]
        let bytes = ShardSnapshot(machine: replica, decisions: decisions).encoded()
        let decoded = try await ShardSnapshot.decode(bytes, shard: 3, spineDepth: Self.spineDepth)
        #expect(decoded.decisions == decisions)
        #expect(decoded.machine.lastIndex == UInt64(cut))
        #expect(decoded.machine.spinePriorities == replica.spinePriorities, "seed \(seed) cut \(cut)")
        var restored = decoded.machine
        for (offset, entry) in run.entries.enumerated().dropFirst(cut) {
            _ = try restored.apply(entry, at: UInt64(offset + 1))
        }
        #expect(restored.trees == run.machine.trees, "seed \(seed) cut \(cut)")
        #expect(Set(restored.intents.keys) == Set(run.machine.intents.keys), "seed \(seed) cut \(cut)")
        #expect(restored.spinePriorities == run.machine.spinePriorities, "seed \(seed) cut \(cut)")
    }

    @Test func aSnapshotOfAnotherShardIsRefused() async throws {
        let bytes = ShardSnapshot(machine: ShardStateMachine(shard: 4, spineDepth: 2), decisions: [:]).encoded()
        await #expect(throws: CommitRecordError.self) {
            try await ShardSnapshot.decode(bytes, shard: 3, spineDepth: 2)
        }
    }

    /// 400 random commands against the machine and the model, checked after every step.
    private static func randomRun(seed: UInt64) throws -> Run {
        var run = Run(random: SeededRandom(seed: seed), seed: seed)
        for step in 0..<400 {
            run.step = step
            run.clock += Int64.random(in: 0...3, using: &run.random)
            switch Int.random(in: 0..<20, using: &run.random) {
            case 0..<9: try Self.singleWrite(&run)
            case 9: Self.lock(&run)
            case 10..<13: try Self.prepare(&run)
            case 13..<16: Self.finish(&run)
            case 16: Self.decideAgainOrForget(&run)
            case 17: Self.unlock(&run)
            case 18: Self.finishUnknown(&run)
            default: try Self.decide(&run)
            }
            run.checkState()
            #expect(run.machine.decisions == run.decisions, "\(run.context): the anchor's decisions")
        }
        return run
    }

    // MARK: Commands

    private static func singleWrite(_ run: inout Run) throws {
        let namespace = Self.namespaces[Int.random(in: 0..<Self.namespaces.count, using: &run.random)]
        let write = Self.randomWrite(&run, namespace: namespace, minimumDepth: Self.spineDepth)
        var condition: WriteCondition?
        if Bool.random(using: &run.random) {
            let path = write.mutations[0].path
            let model = run.models[namespace] ?? LeafModel()
            let right = model.node(at: path).hash
            let other = Self.randomPath(&run, depth: path.count)
            let digit = Int64.random(in: 0...9, using: &run.random)
            let wrong = ["", Node(.int(digit)).hash, model.node(at: other).hash][
                Int.random(in: 0..<3, using: &run.random)]
            condition = WriteCondition(path: path, expectedHash: Bool.random(using: &run.random) ? right : wrong)
        }
        let model = run.models[namespace] ?? LeafModel()
        let reads = condition.map { [$0.path] } ?? []
        let blocked = run.isLocked(namespace: namespace, mutations: write.mutations, reads: reads, except: nil)
        let needsAllShards = Self.needsAllShards(write, run)
        let failed = condition.map { model.node(at: $0.path).hash != $0.expectedHash } ?? false
        let before = run.machine.trees
        let decision = run.machine.write(try write.shardWrite(), conditions: condition.map { [$0] } ?? [])
        switch decision {
        case .blocked:
            run.counts["blocked", default: 0] += 1
            #expect(blocked, "\(run.context): blocked, but no other transaction holds an overlapping path")
        case .needsAllShards:
            run.counts["needsAllShards", default: 0] += 1
            #expect(!blocked && needsAllShards, "\(run.context): needsAllShards for \(write.paths)")
        case .conditionFailed(let current):
            run.counts["conditionFailed", default: 0] += 1
            #expect(!blocked && !needsAllShards && failed, "\(run.context): the condition held")
            #expect(current == model.node(at: condition?.path ?? .root), "\(run.context)")
        case .alreadyDecided, .nothingToDo, .duplicate, .unrepresentable:
            Issue.record("\(run.context): a write answered \(decision)")
        case .appended(let entry, let applied):
            run.counts["appended", default: 0] += 1
            #expect(!blocked && !needsAllShards && !failed, "\(run.context): appended a write that must not be")
            run.entries.append(entry)
            let resolved = run.applyToModel(write)
            guard case .write(let change) = applied.effect else {
                Issue.record("\(run.context): a write applied as \(applied.effect)")
                return
            }
            #expect(change.namespace == namespace && change.mutations == resolved, "\(run.context)")
            let increments = Set(write.mutations.filter(\.isBareIncrement).map(\.path))
            #expect(Set(change.increments.keys) == increments, "\(run.context): the bare increments")
        }
        if case .appended = decision { return }
        #expect(run.machine.trees == before, "\(run.context): a command that appended nothing changed the trees")
    }

    private static func lock(_ run: inout Run) {
        guard run.transactions.count < 4 else { return }
        let transaction = TransactionID(rawValue: run.nextTransaction)
        run.nextTransaction += 1
        let namespace = Self.namespaces[Int.random(in: 0..<Self.namespaces.count, using: &run.random)]
        let paths = (0..<Int.random(in: 1...2, using: &run.random)).map { _ in
            Self.randomPath(&run, depth: Int.random(in: 2...4, using: &run.random))
        }
        let expected = !run.isLocked(namespace: namespace, mutations: [], reads: paths, except: transaction)
        #expect(run.machine.lock(transaction, namespace: namespace, paths: paths) == expected, "\(run.context)")
        if expected { run.transactions[transaction] = ModelTransaction(namespace: namespace, locked: paths) }
    }

    /// True when a mutation adding data lands below a leaf on the spine.
    /// The machine escalates a write that lands below a spine leaf, or that would create here a spine node that
    /// may carry a priority elsewhere (a marked node the shard holds no part of) without defining it itself.
    private static func needsAllShards(_ write: ModelWrite, _ run: Run) -> Bool {
        let model = run.models[write.namespace] ?? LeafModel()
        let belowLeaf = write.mutations.contains { mutation in
            guard case .set(let path, let spec) = mutation, spec.hasContent else { return false }
            return model.hasLeafAbove(path, shallowerThan: Self.spineDepth)
        }
        guard !belowLeaf else { return true }
        let marked = run.marks[write.namespace] ?? []
        return write.mutations.contains { mutation in
            guard case .set(let path, let spec) = mutation, spec.hasContent else { return false }
            return (0..<min(Self.spineDepth, path.count)).contains { depth in
                let ancestor = Path(keys: Array(path.keys.prefix(depth)))
                guard marked.contains(ancestor), model.node(at: ancestor).isEmpty else { return false }
                return !write.mutations.contains { other in
                    switch other {
                    case .set(let at, _): at.contains(ancestor)
                    case .setPriority(let at, _): at == ancestor
                    }
                }
            }
        }
    }

    /// A transaction's part for this shard: a read-locked transaction's, or a new one's.
    private static func transactionPart(_ run: inout Run) -> (TransactionID, ModelWrite)? {
        let candidates = run.transactions.filter { $0.value.prepared == nil }.keys.sorted()
        let transaction: TransactionID
        let namespace: String
        if let locked = candidates.randomElement(using: &run.random), Bool.random(using: &run.random) {
            transaction = locked
            namespace = run.transactions[locked]?.namespace ?? "default"
        } else {
            guard run.transactions.count < 4 else { return nil }
            transaction = TransactionID(rawValue: run.nextTransaction)
            run.nextTransaction += 1
            namespace = Self.namespaces[Int.random(in: 0..<Self.namespaces.count, using: &run.random)]
        }
        // Mostly deep parts; now and then a spine value (which may leave a leaf on the spine), rarely the root.
        let minimumDepth = [0, 1, 1, 2, 2, 2, 2, 2, 2, 2][Int.random(in: 0..<10, using: &run.random)]
        var write = Self.randomWrite(&run, namespace: namespace, minimumDepth: minimumDepth)
        if minimumDepth < 2, Bool.random(using: &run.random) {
            let spine = Self.randomPath(&run, depth: minimumDepth)
            write.mutations = [.set(spine, .leaf(ValueSpec.leaf(&run.random), nil))]
        }
        return (transaction, write)
    }

    /// This shard (3) prepares as a participant below the anchor (the highest participant).
    private static func prepare(_ run: inout Run) throws {
        guard let part = Self.transactionPart(&run) else { return }
        let (transaction, write) = part
        let namespace = write.namespace
        let plan = ShardTransactionPlan(anchor: 5, participants: [1, 3, 5])
        let blocked = run.isLocked(namespace: namespace, mutations: write.mutations, reads: [], except: transaction)
        let needsAllShards = Self.needsAllShards(write, run)
        let before = run.machine.trees
        let decision = run.machine.prepare(transaction, ShardIntent(write: try write.shardWrite(), plan: plan))
        switch decision {
        case .blocked:
            run.counts["blocked", default: 0] += 1
            #expect(blocked, "\(run.context): prepare blocked without a conflicting transaction")
        case .needsAllShards:
            run.counts["needsAllShards", default: 0] += 1
            #expect(!blocked && needsAllShards, "\(run.context): prepare answered needsAllShards for \(write.paths)")
        case .appended(let entry, let applied):
            run.counts["prepared", default: 0] += 1
            #expect(!blocked && !needsAllShards, "\(run.context): prepared a part that must not be")
            run.entries.append(entry)
            run.transactions[transaction] = ModelTransaction(namespace: namespace, prepared: write)
            guard case .prepared(let preparedID, let intent) = applied.effect else {
                Issue.record("\(run.context): a prepare applied as \(applied.effect)")
                return
            }
            #expect(preparedID == transaction && intent.plan == plan, "\(run.context)")
        case .conditionFailed, .alreadyDecided, .nothingToDo, .duplicate, .unrepresentable:
            Issue.record("\(run.context): prepare answered \(decision)")
        }
        if case .appended = decision { return }
        #expect(run.machine.trees == before, "\(run.context): a prepare that appended nothing changed the trees")
    }

    /// This shard (3) is the anchor: it logs the decision together with its own part, which it never prepared.
    private static func decide(_ run: inout Run) throws {
        guard let part = Self.transactionPart(&run) else { return }
        let (transaction, write) = part
        let namespace = write.namespace
        let commit = Int.random(in: 0..<4, using: &run.random) > 0
        let plan = ShardTransactionPlan(anchor: 3, participants: [1, 3])
        let blocked =
            commit && run.isLocked(namespace: namespace, mutations: write.mutations, reads: [], except: transaction)
        let needsAllShards = commit && Self.needsAllShards(write, run)
        let before = run.machine.trees
        let decision = run.machine.decide(
            transaction, commit: commit, part: ShardIntent(write: try write.shardWrite(), plan: plan))
        switch decision {
        case .blocked:
            run.counts["blocked", default: 0] += 1
            #expect(blocked, "\(run.context): decide blocked without a conflicting transaction")
        case .needsAllShards:
            run.counts["needsAllShards", default: 0] += 1
            #expect(!blocked && needsAllShards, "\(run.context): decide answered needsAllShards for \(write.paths)")
        case .appended(let entry, let applied):
            run.counts["decided", default: 0] += 1
            #expect(!blocked && !needsAllShards, "\(run.context): decided a part that must not be")
            run.entries.append(entry)
            run.transactions[transaction] = nil
            run.decisions[transaction] = commit
            let resolved = commit ? run.applyToModel(write) : nil
            if commit { run.counts["committed", default: 0] += 1 }
            guard case .finished(let finished, let decided, let part) = applied.effect else {
                Issue.record("\(run.context): a decision applied as \(applied.effect)")
                return
            }
            #expect(finished == transaction && decided == commit, "\(run.context)")
            #expect(
                part?.change.mutations == resolved && part?.participants == (commit ? [1, 3] : nil), "\(run.context)")
        case .conditionFailed, .alreadyDecided, .nothingToDo, .duplicate, .unrepresentable:
            Issue.record("\(run.context): decide answered \(decision)")
        }
        if case .appended = decision { return }
        #expect(run.machine.trees == before, "\(run.context): a decision that appended nothing changed the trees")
    }

    /// A participant learns its anchor's decision.
    private static func finish(_ run: inout Run) {
        let prepared = run.transactions.filter { $0.value.prepared != nil }.keys.sorted()
        guard let transaction = prepared.randomElement(using: &run.random),
            let write = run.transactions[transaction]?.prepared
        else { return }
        let commit = Int.random(in: 0..<4, using: &run.random) > 0
        guard case .appended(let entry, let applied) = run.machine.finish(transaction, commit: commit) else {
            Issue.record("\(run.context): finishing appended nothing")
            return
        }
        run.entries.append(entry)
        run.transactions[transaction] = nil
        let resolved = commit ? run.applyToModel(write) : nil
        if commit { run.counts["committed", default: 0] += 1 }
        guard case .finished(let finished, let decided, let part) = applied.effect else {
            Issue.record("\(run.context): a finish applied as \(applied.effect)")
            return
        }
        #expect(finished == transaction && decided == nil, "\(run.context)")
        #expect(
            part?.change.mutations == resolved && part?.participants == (commit ? [1, 3, 5] : nil), "\(run.context)")
    }

    private static func unlock(_ run: inout Run) {
        let locked = run.transactions.filter { $0.value.prepared == nil }.keys.sorted()
        guard let transaction = locked.randomElement(using: &run.random) else { return }
        run.machine.unlock(transaction)
        run.transactions[transaction] = nil
    }

    /// Finishing a transaction that holds no part here (finished already, or never prepared) logs nothing.
    private static func finishUnknown(_ run: inout Run) {
        let transaction = TransactionID(rawValue: 1_000_000 + run.nextTransaction)
        run.nextTransaction += 1
        let before = run.machine
        guard case .nothingToDo = run.machine.finish(transaction, commit: true) else {
            Issue.record("\(run.context): finishing a part that is not here appended something")
            return
        }
        #expect(run.machine.lastIndex == before.lastIndex && run.machine.trees == before.trees, "\(run.context)")
    }

    /// The anchor refuses a second decision with the first, and forgets decisions when told to.
    private static func decideAgainOrForget(_ run: inout Run) {
        guard
            let (transaction, commit) = run.decisions.sorted(by: { $0.key < $1.key }).randomElement(using: &run.random)
        else { return }
        if Bool.random(using: &run.random) {
            let before = run.machine.lastIndex
            guard case .alreadyDecided(commit) = run.machine.decide(transaction, commit: !commit, part: nil) else {
                Issue.record("\(run.context): a second decision was not refused with the first")
                return
            }
            #expect(run.machine.lastIndex == before, "\(run.context)")
            return
        }
        let unknown = TransactionID(rawValue: 2_000_000 + run.nextTransaction)
        guard case .appended(let entry, let applied) = run.machine.forget([transaction, unknown]) else {
            Issue.record("\(run.context): forgetting a held decision appended nothing")
            return
        }
        #expect(entry.forgotten == [transaction], "\(run.context): only held decisions are logged as forgotten")
        guard case .bookkeeping = applied.effect else {
            Issue.record("\(run.context): a forget applied as \(applied.effect)")
            return
        }
        run.entries.append(entry)
        run.decisions[transaction] = nil
        guard case .nothingToDo = run.machine.forget([transaction]) else {
            Issue.record("\(run.context): forgetting twice appended something")
            return
        }
    }

    // MARK: Replay

    /// Every entry through the log codec, applied to a fresh machine: the same trees, hashes, intents and decisions.
    private static func checkReplay(_ run: Run) throws {
        var replica = ShardStateMachine(shard: 3, spineDepth: Self.spineDepth)
        for (offset, entry) in run.entries.enumerated() {
            let index = UInt64(offset + 1)
            let record = try ShardLogRecord(decoding: ShardLogRecord.encode(entry, shard: 3, index: index))
            guard case .entry(3, index, let decoded) = record else {
                Issue.record("seed \(run.seed): entry \(index) decoded as \(record)")
                return
            }
            let applied = try replica.apply(decoded, at: index)
            if case .decide(let transaction, let commit, _) = entry {
                guard case .finished(transaction, decision: commit, _) = applied.effect else {
                    Issue.record("seed \(run.seed): decision \(index) replayed as \(applied.effect)")
                    return
                }
            }
        }
        #expect(replica.lastIndex == run.machine.lastIndex)
        #expect(replica.trees == run.machine.trees, "seed \(run.seed)")
        for (namespace, tree) in run.machine.trees {
            #expect(replica.node(namespace: namespace, at: .root).hash == tree.hash, "seed \(run.seed)")
        }
        #expect(Set(replica.intents.keys) == Set(run.machine.intents.keys))
        #expect(replica.decisions == run.machine.decisions, "seed \(run.seed)")
        for (transaction, intent) in run.machine.intents {
            #expect(replica.intents[transaction]?.bytes(transaction) == intent.bytes(transaction))
        }
    }

    // MARK: Generators

    private static let levels = [["a", "b"], ["x", "y"], ["m", "n"], ["p"]]

    private static func randomPath(_ run: inout Run, depth: Int) -> Path {
        Path(
            keys: (0..<depth).map { level in
                let choices = Self.levels[min(level, Self.levels.count - 1)]
                return Key(unchecked: choices[Int.random(in: 0..<choices.count, using: &run.random)])
            })
    }

    /// One to three mutations on paths none of which contains another (as Firebase requires of an update).
    private static func randomWrite(_ run: inout Run, namespace: String, minimumDepth: Int) -> ModelWrite {
        var mutations: [ModelMutation] = []
        for _ in 0..<Int.random(in: 1...3, using: &run.random) {
            let path = Self.randomPath(&run, depth: Int.random(in: minimumDepth...4, using: &run.random))
            guard !mutations.contains(where: { $0.path.contains(path) || path.contains($0.path) }) else { continue }
            if Int.random(in: 0..<5, using: &run.random) == 0 {
                mutations.append(.setPriority(path, PrioritySpec.random(&run.random)))
            } else {
                mutations.append(.set(path, ValueSpec.random(&run.random, depth: 4 - path.count)))
            }
        }
        return ModelWrite(namespace: namespace, mutations: mutations, now: run.clock)
    }
}

extension ShardEntry {
    /// The transactions a `forget` entry names (empty for other entries).
    fileprivate var forgotten: [TransactionID] {
        if case .forget(let transactions) = self { return transactions }
        return []
    }
}
