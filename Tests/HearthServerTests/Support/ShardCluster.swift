import HearthCore
import HearthTestKit
import HearthWire
import Testing

@testable import HearthServer

/// One node's write path without actors, disks or clocks: every shard's state machine, the read view fed through its
/// `CommitFeed`, and the node's one write-ahead log as a list of records in append order.
///
/// Writes go where `Coordinator.submit` sends them (one shard's `write`, or a `TwoPhaseCommit` driven step by step);
/// an appended entry is committed at once. A test can cut the log at any record and recover from the prefix exactly as
/// `Database.open` does (`Recovery`, then the `finishPrepared` rule).
struct ShardCluster {
    /// One record of the write-ahead log: entry `index` of `shard`.
    struct Record {
        var shard: Int
        var index: UInt64
        var entry: ShardEntry
    }

    /// What became of a write.
    enum Outcome {
        case committed([ResolvedMutation])
        case conditionFailed(current: Node)
        /// A prepared transaction or a read lock holds an overlapping path (a real shard would wait).
        case blocked
    }

    let router: ShardRouter
    var machines: [ShardStateMachine]
    var view: ViewState
    private(set) var wal: [Record] = []
    /// Transactions named in order: 1, 2, 3…
    private var nextTransaction: UInt64 = 1

    init(router: ShardRouter) {
        self.router = router
        self.machines = (0..<router.shardCount).map { ShardStateMachine(shard: $0, spineDepth: router.shardDepth) }
        self.view = ViewState(roots: [:], feed: CommitFeed(appliedIndex: Array(repeating: 0, count: router.shardCount)))
    }

    /// A cluster recovered from `snapshot` plus `records` (the log after it), then with every prepared transaction
    /// finished as `Database.finishPrepared` does. Every record goes through the log codec first.
    static func recovered(
        router: ShardRouter, snapshot: SnapshotContent.Decoded?, records: some Collection<Record>,
        after sequence: UInt64
    ) throws -> ShardCluster {
        var recovery = Recovery(router: router, snapshot: snapshot)
        var last = sequence
        for record in records {
            last += 1
            let bytes = ShardLogRecord.encode(record.entry, shard: record.shard, index: record.index)
            try recovery.replay(try ShardLogRecord(decoding: bytes), sequence: last)
        }
        let (view, machines) = recovery.finish(sequence: last)
        var cluster = ShardCluster(router: router)
        cluster.machines = machines
        cluster.view = view
        cluster.finishPrepared()
        return cluster
    }

    /// The view's data at `path`.
    func visible(_ path: Path, namespace: String = "default") -> Node {
        (self.view.roots[namespace] ?? .empty).node(at: path)
    }

    /// Appends what a command appended to the log and hands it to the view; returns its effect.
    @discardableResult
    mutating func record(_ decision: ShardDecision, shard: Int, sourceLocation: SourceLocation = #_sourceLocation)
        -> ShardApplied.Effect?
    {
        guard case .appended(let entry, let applied) = decision else {
            Issue.record("shard \(shard) appended nothing: \(decision)", sourceLocation: sourceLocation)
            return nil
        }
        #expect(
            applied.shard == shard && applied.index == self.machines[shard].lastIndex, sourceLocation: sourceLocation)
        self.wal.append(Record(shard: shard, index: applied.index, entry: entry))
        _ = self.view.receive([applied])
        self.view.logSequence = UInt64(self.wal.count)
        return applied.effect
    }

    /// Submits a write as `Coordinator.submit` does and runs it to the end.
    mutating func write(
        _ mutations: [Mutation], namespace: String = "default", condition: WriteCondition? = nil, now: Int64 = 1_000
    ) -> Outcome {
        guard !mutations.isEmpty else { return .committed([]) }
        var participants = Set<Int>()
        for mutation in mutations {
            participants.formUnion(self.router.shards(namespace: namespace, mutation: mutation.path))
        }
        if let condition { participants.formUnion(self.router.shards(namespace: namespace, mutation: condition.path)) }
        guard participants.count == 1, let only = participants.first else {
            return self.transaction(mutations, namespace: namespace, condition: condition, now: now)
        }
        let write = ShardWrite(namespace: namespace, mutations: mutations, now: now)
        let decision = self.machines[only].write(write, condition: condition)
        switch decision {
        case .appended:
            guard case .write(let change)? = self.record(decision, shard: only) else { return .blocked }
            return .committed(change.mutations)
        case .blocked:
            return .blocked
        case .conditionFailed:
            return .conditionFailed(current: self.visible(condition?.path ?? .root, namespace: namespace))
        case .needsAllShards:
            return self.transaction(mutations, namespace: namespace, condition: condition, now: now, escalated: true)
        }
    }

    /// Runs a multi-shard write through `TwoPhaseCommit` as `Coordinator.transaction` does, calling `interleave`
    /// after every record the transaction appends (other writes may land there; a crash may cut the log there).
    /// A part that lands below a spine leaf aborts what was prepared and reruns the write over every shard, as
    /// `Coordinator.rerunOverEveryShard` does.
    mutating func transaction(
        _ mutations: [Mutation], namespace: String = "default", condition: WriteCondition? = nil, now: Int64 = 1_000,
        escalated: Bool = false, interleave: (inout ShardCluster) -> Void = { _ in }
    ) -> Outcome {
        let id = TransactionID(rawValue: self.nextTransaction)
        self.nextTransaction += 1
        var machine = TwoPhaseCommit(
            transaction: id, namespace: namespace, mutations: mutations, condition: condition, now: now,
            router: self.router, escalated: escalated)
        var directives = machine.start()
        var resolved: [[ResolvedMutation]] = []
        while let directive = directives.first {
            directives.removeFirst()
            switch directive {
            case .lockAndRead(let participants, let paths):
                var nodes: [Int: [Node]] = [:]
                var through: [Int: UInt64] = [:]
                for shard in participants {
                    guard self.machines[shard].lock(id, namespace: namespace, paths: paths) else {
                        for locked in participants { self.machines[locked].unlock(id) }
                        return .blocked
                    }
                    nodes[shard] = paths.map { self.machines[shard].node(namespace: namespace, at: $0) }
                    through[shard] = self.machines[shard].lastIndex
                }
                directives += machine.onRead(nodes, through: through)
            case .conditionFailed(let participants, _):
                for shard in participants { self.machines[shard].unlock(id) }
                return .conditionFailed(current: self.visible(condition?.path ?? .root, namespace: namespace))
            case .prepare(let parts, let plan):
                var prepared: [Int] = []
                for (shard, write) in parts {
                    let decision = self.machines[shard].prepare(id, write, plan: plan)
                    if case .needsAllShards = decision {
                        for earlier in prepared {
                            self.record(self.machines[earlier].finish(id, commit: false), shard: earlier)
                        }
                        for participant in plan.participants { self.machines[participant].unlock(id) }
                        guard !escalated else { return Self.stillBelowASpineLeaf(id) }
                        return self.transaction(
                            mutations, namespace: namespace, condition: condition, now: now, escalated: true,
                            interleave: interleave)
                    }
                    self.record(decision, shard: shard)
                    prepared.append(shard)
                    interleave(&self)
                }
                directives += machine.onPrepared()
            case .decide(let anchor, let part):
                let decision = self.machines[anchor].decide(id, commit: true, part: part)
                if case .needsAllShards = decision {
                    for shard in part.plan.participants where shard != anchor {
                        self.record(self.machines[shard].finish(id, commit: false), shard: shard)
                    }
                    for shard in part.plan.participants { self.machines[shard].unlock(id) }
                    guard !escalated else { return Self.stillBelowASpineLeaf(id) }
                    return self.transaction(
                        mutations, namespace: namespace, condition: condition, now: now, escalated: true,
                        interleave: interleave)
                }
                if case .finished(_, _, let part)? = self.record(decision, shard: anchor) {
                    resolved.append(part?.change.mutations ?? [])
                }
                interleave(&self)
                directives += machine.onDecided()
            case .finish(let participants, let commit):
                for shard in participants {
                    if case .finished(_, _, let part)? = self.record(
                        self.machines[shard].finish(id, commit: commit), shard: shard)
                    {
                        resolved.append(part?.change.mutations ?? [])
                    }
                    interleave(&self)
                }
            }
        }
        return .committed(CommitFeed.merge(resolved))
    }

    /// An escalated write whose part still lands below a spine leaf: `Coordinator.rerunOverEveryShard` stops the
    /// node with a precondition failure here; the model records an issue instead, having aborted what it prepared.
    private static func stillBelowASpineLeaf(_ id: TransactionID) -> Outcome {
        Issue.record(
            "transaction \(id) still lands below a spine leaf after clearing it (the coordinator crashes here)")
        return .blocked
    }

    /// `Database.finishPrepared`: each prepared part logs its anchor's decision as the read view's `CommitFeed`
    /// recorded it, or aborts when there is none.
    mutating func finishPrepared() {
        let decisions = self.view.feed.decisions
        var pending: [(shard: Int, transaction: TransactionID, anchor: Int)] = []
        for machine in self.machines {
            for (transaction, intent) in machine.intents.sorted(by: { $0.key < $1.key }) {
                pending.append((machine.shard, transaction, intent.plan.anchor))
            }
        }
        for (shard, transaction, anchor) in pending {
            let commit = decisions[anchor][transaction] ?? false
            self.record(self.machines[shard].finish(transaction, commit: commit), shard: shard)
        }
    }
}

extension ShardEntry {
    /// The entry's log bytes: two entries are the same entry when these are equal.
    var bytes: [UInt8] {
        var bytes: [UInt8] = []
        self.encode(into: &bytes)
        return bytes
    }
}

extension ShardIntent {
    /// The intent as its prepare entry's bytes, to compare intents.
    func bytes(_ transaction: TransactionID) -> [UInt8] {
        ShardEntry.prepare(transaction, self.write, self.plan).bytes
    }
}

/// Paths and values written tersely in tests.
enum Fixture {
    static func path(_ text: String) -> Path {
        Path(keys: text.split(separator: "/").map { Key(unchecked: String($0)) })
    }

    /// A write value parsed from JSON text at `path`.
    static func value(_ json: String, at path: Path = .root) throws -> WriteValue {
        try WriteValue.parseWrite(Array(json.utf8), depth: path.count)
    }

    static func set(_ path: String, _ json: String) throws -> Mutation {
        .set(Self.path(path), try Self.value(json, at: Self.path(path)))
    }

    static func node(_ json: String) throws -> Node {
        try Self.value(json).node
    }

    /// A node as compact export JSON, for readable expectations.
    static func json(_ node: Node) -> String {
        String(decoding: node.jsonBytes(format: .export), as: UTF8.self)
    }

    /// Keys `prefix0`, `prefix1`, … in the order of the first one landing in each wanted shard (`nil` when some
    /// shard is never hit in the first thousand keys).
    static func keys(
        _ prefix: String, under parent: Path, router: ShardRouter, shards wanted: [Int], namespace: String = "default"
    ) -> [String]? {
        var found: [Int: String] = [:]
        for index in 0..<1000 {
            let key = "\(prefix)\(index)"
            guard let shard = router.shard(namespace: namespace, path: parent.appending(Key(unchecked: key))),
                wanted.contains(shard), found[shard] == nil
            else { continue }
            found[shard] = key
        }
        let keys = wanted.compactMap { found[$0] }
        return keys.count == wanted.count ? keys : nil
    }
}
