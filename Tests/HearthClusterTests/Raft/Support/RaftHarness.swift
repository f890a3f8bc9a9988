import HearthCluster

/// A few Raft nodes wired together in memory for paper-section tests: messages queue in one FIFO and are delivered
/// only when a test says so, links can be cut, and each node's Ready is handled as a careful shell would (persist,
/// send, apply, advance).
struct RaftHarness {
    var nodes: [NodeID: RaftNode] = [:]
    var storage: [NodeID: RaftPersistentState] = [:]
    var applied: [NodeID: [RaftEntry]] = [:]
    var readStates: [NodeID: [RaftReadState]] = [:]
    var inbox: [RaftMessage] = []
    /// Directed links that lose messages: "from>to".
    var cut: Set<String> = []
    /// Messages for which this returns true are lost.
    var drops: (@Sendable (RaftMessage) -> Bool)?
    /// Every message handed to the network, for tests that inspect traffic.
    var sent: [RaftMessage] = []
    /// Whether a Ready's messages go out folded per peer, as `RaftGroupHost` sends them (`RaftMessage.coalesced`).
    var coalesces = false
    let configuration: RaftConfiguration
    static let group = RaftGroupID(7)

    init(
        voters: [NodeID],
        learners: [NodeID] = [],
        configuration: RaftConfiguration? = nil
    ) throws {
        self.configuration = try configuration ?? RaftConfiguration()
        let initial = RaftPersistentState(
            hardState: RaftHardState(),
            snapshot: RaftSnapshotMetadata(
                index: 0,
                term: 0,
                membership: RaftMembership(voters: voters, learners: learners)
            ),
            entries: []
        )
        for (offset, id) in (voters + learners).enumerated() {
            try self.add(id, state: initial, seed: UInt64(offset + 1))
        }
    }

    /// A group of `voters` whose first voter has won an election and told the others.
    static func elected(voters: [NodeID]) throws -> RaftHarness {
        var harness = try RaftHarness(voters: voters)
        harness.campaign(voters[0])
        harness.tickAll()
        return harness
    }

    /// n1 leads n1–n3; n3 was cut off while n1 committed ten entries and compacted its log through them, so n3
    /// now needs a snapshot. The links are still cut. Returns the harness and the index n1 compacted through.
    static func followerBehindACompaction() throws -> (harness: RaftHarness, compacted: UInt64) {
        var harness = try RaftHarness.elected(voters: ["n1", "n2", "n3"])
        harness.isolate("n3")
        for index in 0..<10 { _ = harness.propose("n1", "v\(index)") }
        harness.deliverAll()
        harness.tickAll()
        let applied = harness.node("n1").log.applied
        let metadata = try harness.with("n1") { try $0.compact(through: applied) }
        harness.storage["n1"]?.snapshot = metadata
        harness.storage["n1"]?.entries.removeAll { $0.index <= applied }
        return (harness, applied)
    }

    mutating func add(_ id: NodeID, state: RaftPersistentState, seed: UInt64 = 99) throws {
        self.nodes[id] = try RaftNode(
            id: id,
            group: Self.group,
            configuration: self.configuration,
            restoring: state,
            seed: seed
        )
        self.storage[id] = state
        self.applied[id] = self.applied[id] ?? []
    }

    func node(_ id: NodeID) -> RaftNode {
        guard let node = self.nodes[id] else { preconditionFailure("no node \(id) in the harness") }
        return node
    }

    mutating func with<T>(_ id: NodeID, _ body: (inout RaftNode) throws -> T) rethrows -> T {
        guard var node = self.nodes[id] else { preconditionFailure("no node \(id) in the harness") }
        defer {
            self.nodes[id] = node
            self.drain(id)
        }
        return try body(&node)
    }

    /// Handles every Ready of `id`.
    mutating func drain(_ id: NodeID) {
        guard var node = self.nodes[id] else { return }
        while let ready = node.ready() {
            var disk = self.storage[id] ?? .joining
            if let snapshot = ready.snapshot {
                disk.snapshot = snapshot.metadata
                disk.entries = []
            }
            if let first = ready.entries.first {
                disk.entries.removeAll { $0.index >= first.index }
                disk.entries.append(contentsOf: ready.entries)
            }
            if let hardState = ready.hardState { disk.hardState = hardState }
            self.storage[id] = disk
            let messages =
                self.coalesces
                ? [ready.messagesBeforePersisting, ready.messagesAfterPersisting].flatMap {
                    RaftMessage.coalesced(
                        $0, maxEntries: self.configuration.maxAppendEntries,
                        maxBytes: self.configuration.maxAppendBytes)
                } : ready.messages
            for message in messages {
                self.sent.append(message)
                let lost = self.cut.contains("\(message.from)>\(message.to)") || self.drops?(message) == true
                if !lost { self.inbox.append(message) }
            }
            self.readStates[id, default: []].append(contentsOf: ready.readStates)
            for peer in ready.snapshotRequests {
                let snapshot = RaftSnapshot(metadata: disk.snapshot, data: [])
                try? node.sendSnapshot(snapshot, to: peer)
            }
            self.applied[id, default: []].append(contentsOf: ready.committedEntries)
            node.advance(ready)
        }
        self.nodes[id] = node
    }

    mutating func drainAll() {
        for id in self.nodes.keys.sorted() { self.drain(id) }
    }

    /// Delivers queued messages (and those they cause) until none are left.
    mutating func deliverAll(limit: Int = 100_000) {
        self.drainAll()
        var delivered = 0
        while !self.inbox.isEmpty && delivered < limit {
            let message = self.inbox.removeFirst()
            delivered += 1
            guard self.nodes[message.to] != nil else { continue }
            self.with(message.to) { $0.step(message) }
        }
    }

    /// Ticks `id` alone until it leaves the follower role (it starts a campaign), then delivers everything.
    mutating func campaign(_ id: NodeID) {
        for _ in 0..<(3 * self.configuration.electionTicks) {
            self.with(id) { $0.tick() }
            if self.node(id).role != .follower { break }
        }
        self.deliverAll()
    }

    /// Ticks every node once, then delivers everything.
    mutating func tickAll(times: Int = 1) {
        for _ in 0..<times {
            for id in self.nodes.keys.sorted() { self.with(id) { $0.tick() } }
            self.deliverAll()
        }
    }

    mutating func isolate(_ id: NodeID) {
        for other in self.nodes.keys where other != id {
            self.cut.insert("\(id)>\(other)")
            self.cut.insert("\(other)>\(id)")
        }
    }

    mutating func heal() { self.cut = [] }

    mutating func propose(_ id: NodeID, _ text: String) -> RaftProposal {
        self.with(id) { $0.propose(Array(text.utf8)) }
    }

    /// The command texts `id` applied, in order.
    func commands(_ id: NodeID) -> [String] {
        (self.applied[id] ?? []).compactMap { entry in
            if case .command(let data) = entry.payload { return String(decoding: data, as: UTF8.self) }
            return nil
        }
    }

    var leaders: [NodeID] { self.nodes.values.filter { $0.role == .leader }.map(\.id).sorted() }
}
