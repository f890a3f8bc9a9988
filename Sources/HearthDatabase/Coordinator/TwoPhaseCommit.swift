public import HearthCore
public import HearthWire

/// One multi-shard write as a pure state machine: what to lock and read, what each participant prepares, and the
/// decision, from the results the coordinator's shell feeds back in.
///
/// The phases follow two-phase commit with the transaction record in an anchor shard, the highest participant:
/// 1. `start()`: when the write must read before it writes (a compare-and-set, server values on the spine, or a
///    write landing below a spine leaf), lock the read paths in every participant, ascending, and read them.
/// 2. `onRead`: check the conditions against the union of the participants' data; resolve spine server values;
///    cut each mutation into the part every participant owns. Then prepare each part but the anchor's, ascending
///    (prepares lock, and ascending order means two transactions never wait for each other in a cycle).
/// 3. `onPrepared`: once every prepare is ordered before the decision, the anchor locks its own part and logs the
///    decision with it, in one entry (the anchor is last in the ascending order, so the order holds).
/// 4. `onDecided`: the other participants log the decision they learned; then the write is done.
/// No step waits for a disk: locks are held from prepare to decision, both only queued in the logs.
///
/// Where every participant is on one executor over one log that orders every shard (a single node: `together`), a
/// write that reads nothing first tries to commit every part at once, in one log record (`commitTogether`); only
/// when a participant is obstructed (a prepared transaction holds its paths, the write was applied before, or it
/// lands below a spine leaf) does it prepare as above, which parks, answers or reruns as each case needs.
public struct TwoPhaseCommit: Sendable {
    public enum Phase: Sendable, Equatable { case reading, preparing, deciding, finishing, done }

    /// What the shell must do next.
    public enum Directive: Sendable {
        /// Commit every part at once, on the anchor, in one log record; then call `onCommittedTogether`, or
        /// `onObstructed` when a participant could not.
        case commitTogether(anchor: Int, parts: [(shard: Int, intent: ShardIntent)])
        /// Lock and read `paths` in every participant, ascending, then call `onRead`.
        case lockAndRead(participants: [Int], paths: [Path])
        /// Prepare each part, in this (ascending) order, then call `onPrepared`. A part's guards are the condition
        /// paths its shard owns: they stay locked there until the decision.
        case prepare([(shard: Int, intent: ShardIntent)], plan: ShardTransactionPlan)
        /// The anchor logs the decision with its own part; then call `onDecided`.
        case decide(anchor: Int, part: ShardIntent)
        /// The other participants log the decision.
        case finish(participants: [Int], commit: Bool)
        /// A condition failed: release the read locks; nothing was prepared. The data read reflects every entry
        /// up to `through` in each participant.
        case conditionFailed(participants: [Int], through: [Int: UInt64])
        /// An increment on the spine would leave a number no value can hold against the data read: the write
        /// fails whole; release the read locks (nothing was prepared).
        case unrepresentable(participants: [Int], UnrepresentableIncrementError)
    }

    public let transaction: TransactionID
    public let namespace: String
    public private(set) var phase: Phase
    private var mutations: [Mutation]
    private let conditions: [WriteCondition]
    private let now: Int64
    /// The write's origin, carried by every part so that each participant remembers it once committed.
    private let origin: WriteOrigin?
    private let router: ShardRouter
    private let participants: [Int]
    private let readPaths: [Path]
    /// For a write rerun over every shard: the spine nodes above its new data, whose priority every shard copies.
    private let spineAncestors: [Path]
    /// Each participant's mutations, cut when the transaction starts preparing.
    private var parts: [Int: [Mutation]] = [:]
    /// Whether the participants can commit their parts together (one executor, one log for every shard).
    private let together: Bool
    /// The write lands below a spine leaf and runs over every shard (a shard answered `needsAllShards` before).
    let escalated: Bool
    /// How many times the write already ran again because a refusal could not be confirmed.
    let reruns: Int
    /// What the transaction holds in the participants, and what became of its decision (`TwoPhaseCommit+Holdings`).
    var holdings = Holdings()
    /// Where the shell's steps stand (`TwoPhaseCommit+Steps`).
    var progress = Progress()

    /// - Parameters:
    ///   - origin: who sent the write (`WriteOrigin`), when the client named it.
    ///   - escalated: the write lands below a spine leaf (a shard answered `needsAllShards`).
    ///   - together: the participants can commit their parts at once (`Directive.commitTogether`).
    ///   - reruns: how many times the write already ran again because a refusal could not be confirmed.
    public init(
        transaction: TransactionID, namespace: String, mutations: [Mutation], conditions: [WriteCondition],
        now: Int64, origin: WriteOrigin? = nil, router: ShardRouter, escalated: Bool = false, together: Bool = false,
        reruns: Int = 0
    ) {
        self.together = together
        self.escalated = escalated
        self.reruns = reruns
        self.transaction = transaction
        self.namespace = namespace
        self.mutations = mutations
        self.conditions = conditions
        self.now = now
        self.origin = origin
        self.router = router
        var participants = Set<Int>()
        for mutation in mutations {
            participants.formUnion(router.shards(namespace: namespace, mutation: mutation.path))
        }
        for condition in conditions {
            participants.formUnion(router.shards(namespace: namespace, mutation: condition.path))
        }
        var readPaths: [Path] = conditions.map(\.path)
        for mutation in mutations where router.isSpine(mutation.path) && mutation.hasServerValues {
            readPaths.append(mutation.path)
        }
        var spineAncestors: [Path] = []
        if escalated {
            participants = Set(0..<router.shardCount)
            for mutation in mutations where mutation.addsData() {
                for depth in 0..<min(router.shardDepth, mutation.path.count) {
                    spineAncestors.append(Path(keys: Array(mutation.path.keys.prefix(depth))))
                }
            }
            readPaths += spineAncestors
        }
        self.spineAncestors = Array(Set(spineAncestors)).sorted()
        self.participants = participants.sorted()
        self.readPaths = Array(Set(readPaths)).sorted()
        self.phase = self.readPaths.isEmpty ? .preparing : .reading
    }

    /// The shards taking part, ascending; the last is the anchor.
    public var plan: ShardTransactionPlan {
        ShardTransactionPlan(anchor: self.participants.last ?? 0, participants: self.participants)
    }

    /// The whole value of every spine path the transaction sets, as the parts were cut from it: the read view
    /// and the writer's answer show it instead of joining the parts again (`CommitFeed.merge`). Complete once
    /// the transaction prepares (spine server values are resolved by then).
    public var spineValues: [Path: Node] {
        var values: [Path: Node] = [:]
        for case .set(let path, let value) in self.mutations
        where self.router.isSpine(path) && !value.hasServerValues {
            values[path] = value.node
        }
        return values
    }

    public mutating func start() -> [Directive] {
        if self.phase == .reading { return [.lockAndRead(participants: self.participants, paths: self.readPaths)] }
        guard self.together else { return [self.prepareDirective()] }
        self.cutParts()
        let parts = self.participants.map { (shard: $0, intent: ShardIntent(write: self.part($0), plan: self.plan)) }
        return [.commitTogether(anchor: self.plan.anchor, parts: parts)]
    }

    /// Every part committed at once: the write is done.
    public mutating func onCommittedTogether() {
        precondition(self.phase == .preparing, "onCommittedTogether in phase \(self.phase)")
        self.phase = .done
    }

    /// A participant could not commit at once, and nothing changed: prepare the parts already cut, as two-phase
    /// commit does.
    public mutating func onObstructed() -> [Directive] {
        precondition(self.phase == .preparing, "onObstructed in phase \(self.phase)")
        return [self.prepareCutParts()]
    }

    /// The participants' data at the read paths (in `readPaths` order) and the index each read reflects.
    public mutating func onRead(_ nodes: [Int: [Node]], through: [Int: UInt64]) -> [Directive] {
        precondition(self.phase == .reading, "onRead in phase \(self.phase)")
        var current: [Path: Node] = [:]
        for (index, path) in self.readPaths.enumerated() {
            current[path] = Node.union(self.participants.compactMap { nodes[$0]?[index] })
        }
        if self.conditions.contains(where: { (current[$0.path] ?? .empty).hash != $0.expectedHash }) {
            self.phase = .done
            return [.conditionFailed(participants: self.participants, through: through)]
        }
        for mutation in self.mutations where self.router.isSpine(mutation.path) && mutation.hasServerValues {
            let tree = Node.empty.setting(current[mutation.path] ?? .empty, at: mutation.path)
            if let error = Mutation.unrepresentableIncrement([mutation], in: tree) {
                self.phase = .done
                return [.unrepresentable(participants: self.participants, error)]
            }
        }
        var clears: [Mutation] = []
        for path in self.readPaths where self.router.isSpine(path) && (current[path]?.isLeaf ?? false) {
            if self.mutations.contains(where: { $0.addsData() && path.count < $0.path.count && path.contains($0.path) })
            {
                clears.append(.set(path, WriteValue(node: .empty)))
            }
        }
        self.mutations =
            clears
            + self.mutations.map { mutation in
                guard self.router.isSpine(mutation.path), mutation.hasServerValues else { return mutation }
                let existing = current[mutation.path] ?? .empty
                switch ShardStateMachine.resolve(
                    mutation, in: Node.empty.setting(existing, at: mutation.path), now: self.now)
                {
                case .set(let path, let node): return .set(path, WriteValue(node: node))
                case .setPriority(let path, let priority):
                    return .setPriority(path, WriteValue(node: Node(priorityValue: priority)))
                }
            }
        self.mutations += self.priorityCopies(current)
        self.phase = .preparing
        return [self.prepareDirective()]
    }

    /// Every shard's copy of the priority of each spine node above the write's new data (as read from every
    /// shard), unless the write itself defines the node; a spine leaf is cleared instead.
    private func priorityCopies(_ current: [Path: Node]) -> [Mutation] {
        self.spineAncestors.compactMap { ancestor in
            guard !(current[ancestor]?.isLeaf ?? false) else { return nil }
            let isDefined = self.mutations.contains { mutation in
                switch mutation {
                case .set(let path, _): path.contains(ancestor)
                case .setPriority(let path, _): path == ancestor
                }
            }
            if isDefined { return nil }
            return .setPriority(ancestor, WriteValue(node: Node(priorityValue: current[ancestor]?.priority)))
        }
    }

    public mutating func onPrepared() -> [Directive] {
        precondition(self.phase == .preparing, "onPrepared in phase \(self.phase)")
        self.phase = .deciding
        let anchor = self.plan.anchor
        return [.decide(anchor: anchor, part: ShardIntent(write: self.part(anchor), plan: self.plan))]
    }

    public mutating func onDecided() -> [Directive] {
        precondition(self.phase == .deciding, "onDecided in phase \(self.phase)")
        self.phase = .done
        self.holdings.decision = .logged
        return [.finish(participants: Array(self.participants.dropLast()), commit: true)]
    }

    /// Cuts every mutation once (a spine value is split in one pass for all shards).
    private mutating func cutParts() {
        var cut: [Int: [Mutation]] = [:]
        for mutation in self.mutations {
            for (owner, part) in self.cut(mutation) { cut[owner, default: []].append(part) }
        }
        self.parts = cut
    }

    /// Cuts the parts and prepares them.
    private mutating func prepareDirective() -> Directive {
        self.cutParts()
        return self.prepareCutParts()
    }

    /// Prepares each part but the anchor's, ascending, with the condition paths its shard owns as its guards.
    private func prepareCutParts() -> Directive {
        .prepare(
            self.participants.dropLast().map { shard in
                let guards = self.conditions.map(\.path).filter {
                    self.router.shards(namespace: self.namespace, mutation: $0).contains(shard)
                }
                return (shard: shard, intent: ShardIntent(write: self.part(shard), plan: self.plan, guards: guards))
            }, plan: self.plan)
    }

    /// The mutations `shard` applies for this transaction.
    private func part(_ shard: Int) -> ShardWrite {
        ShardWrite(namespace: self.namespace, mutations: self.parts[shard] ?? [], now: self.now, origin: self.origin)
    }

    /// The part of `mutation` each shard owns: a deep path belongs to one shard; a spine value is cut along shard
    /// lines, every shard keeping a copy of its spine leaves and priorities.
    private func cut(_ mutation: Mutation) -> [(Int, Mutation)] {
        if let shard = self.router.shard(namespace: self.namespace, path: mutation.path) { return [(shard, mutation)] }
        switch mutation {
        case .set(let path, let value):
            let parts = self.router.split(value.node, at: path, namespace: self.namespace)
            // A shard whose part of a prioritised spine node is empty still learns the priority.
            let copies = ShardStateMachine.prioritisedSpineNodes(
                in: value.node, at: path, spineDepth: self.router.shardDepth
            ).map { Mutation.setPriority($0.0, WriteValue(node: Node(priorityValue: $0.1))) }
            let texts =
                value.hasServerValues
                ? nil
                : value.sourceJSON.flatMap {
                    self.router.split(json: $0, at: path, namespace: self.namespace)
                }
            return self.participants.flatMap { shard in
                var part = WriteValue(node: parts[shard])
                part.sourceJSON = texts?[shard]
                return [(shard, Mutation.set(path, part))] + copies.map { (shard, $0) }
            }
        case .setPriority:
            return self.participants.map { ($0, mutation) }
        }
    }
}
