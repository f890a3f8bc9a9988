import HearthCore
import HearthSystem
import HearthTestKit
import HearthWire
import Synchronization

@testable import HearthDatabase
@testable import HearthServer

/// What a workload's client writes through and reads from: one node's write path.
protocol WorkloadTarget: Sendable {
    /// Submits a write and waits for its outcome.
    func perform(_ mutations: [Mutation], condition: WriteCondition?, now: Int64) async throws -> WriteOutcome
    /// What the node's read view shows at `path`.
    func visible(_ path: Path) -> Node
    /// A read that reflects every write acknowledged before it began (a cluster node's read barrier first).
    func read(_ path: Path) async throws -> Node
}

/// Random clients for a `Simulation` or a `ClusterSimulation`, and what they did, so that a check after any crash
/// can tell which writes must be present.
///
/// Every operation leaves a marker per part: counter `c/kI` gets `n += d` and `ops/oID = d`, register `r/kI` gets
/// `v = v + 1` (a compare-and-set on the register) and `ops/oID = 1`. Markers are never deleted, so the state proves
/// what happened: a counter equals the sum of its markers (increments exact), a register its marker count, an
/// operation's markers are all there or none (all or nothing), and every acknowledged operation's are there.
final class SimulatedWorkload: Sendable {
    /// What one operation writes, and whether its client heard it committed.
    struct Operation: Sendable {
        var markers: [Path]
        /// The value it set `meta` to, if any (a spine leaf, copied into every shard).
        var meta: String?
        var isAcknowledged = false
    }

    /// What a client's operations are.
    enum Mix: Sendable {
        case mixed
        case reads
        case compareAndSets
    }

    static let counters = 6
    static let registers = 3
    private let state = Mutex<(next: Int, operations: [Int: Operation])>((0, [:]))
    /// Each register's reads and compare-and-sets with their times, from clients that run with a clock (for the
    /// linearizability check; a register's value is its `v`, 0 while absent).
    private let histories = Mutex<[Int: [RegisterOperation<Int64>]]>([:])
    /// The instant history times count from.
    private let epoch = ContinuousClock.now

    /// Each register's history, by register.
    var registerHistories: [Int: [RegisterOperation<Int64>]] { self.histories.withLock { $0 } }

    /// Every operation started so far, by id.
    var operations: [Int: Operation] { self.state.withLock { $0.operations } }

    static func counter(_ index: Int) -> Path { Fixture.path("c/k\(index)") }
    static func register(_ index: Int) -> Path { Fixture.path("r/k\(index)") }

    /// Runs `count` random operations against `node`, one after another; stops at the first error (a crash).
    func client(_ node: some WorkloadTarget, seed: UInt64, count: Int) async throws {
        var random = SeededRandom(seed: seed)
        for _ in 0..<count {
            try await self.operation(node, using: &random)
        }
    }

    /// Runs `count` random operations, each through the node `pick` chooses, waiting `pause` between them (and
    /// before retrying when no node is up). An operation that fails is left unacknowledged (its outcome is unknown)
    /// and the client goes on, as an application would. A quarter of the operations read a register (`.reads`: all
    /// of them; `.compareAndSets`: none, every write being a compare-and-set); those reads and every compare-and-set
    /// go into the register's history, timed by `clock`.
    func client(
        seed: UInt64, count: Int, pause: Duration, clock: any NodeClock, mix: Mix = .mixed,
        pick: @escaping @Sendable (inout SeededRandom) -> (any WorkloadTarget)?
    ) async {
        var random = SeededRandom(seed: seed)
        var done = 0
        while done < count {
            guard (try? await clock.sleep(for: pause)) != nil else { return }
            guard let node = pick(&random) else { continue }
            done += 1
            if mix == .reads || (mix == .mixed && Int.random(in: 0..<4, using: &random) == 0) {
                let register = Int.random(in: 0..<Self.registers, using: &random)
                let invoked = self.stamp(clock)
                guard let value = try? await node.read(Self.register(register)) else { continue }
                self.record(
                    register, .read(Self.int(value.child(Key(unchecked: "v")))), invoked: invoked,
                    completed: self.stamp(clock))
                continue
            }
            try? await self.operation(node, using: &random, clock: clock, kind: mix == .compareAndSets ? 3 : nil)
        }
    }

    /// What breaks the workload's invariants in `root` (the data of an idle node): counters that are not the sum of
    /// their increments, registers that are not their compare-and-set count, operations half there, acknowledged
    /// operations missing.
    func violations(in root: Node) -> [String] {
        var found: [String] = []
        for counter in 0..<Self.counters {
            let node = root.node(at: Self.counter(counter))
            let markers = node.child(Key(unchecked: "ops")).children.map { Self.int($0.node) }
            let value = Self.int(node.child(Key(unchecked: "n")))
            if value != markers.reduce(0, +) {
                found.append("counter \(counter) is \(value), its increments add up to \(markers.reduce(0, +))")
            }
        }
        for register in 0..<Self.registers {
            let node = root.node(at: Self.register(register))
            let value = Self.int(node.child(Key(unchecked: "v")))
            let markers = node.child(Key(unchecked: "ops")).children.count
            if value != Int64(markers) {
                found.append("register \(register) is \(value) after \(markers) compare-and-sets")
            }
        }
        let meta = root.node(at: Fixture.path("meta")).leafValue
        for (id, operation) in self.operations.sorted(by: { $0.key < $1.key }) {
            let present = operation.markers.filter { !root.node(at: $0).isEmpty }
            if !present.isEmpty && present.count != operation.markers.count {
                found.append("operation \(id) is half there: \(present.count) of \(operation.markers.count) parts")
            }
            if operation.isAcknowledged && present.count != operation.markers.count {
                found.append("acknowledged operation \(id) is missing")
            }
            if let value = operation.meta, meta == .string(value), present.count != operation.markers.count {
                found.append("operation \(id) set meta but lost its other parts")
            }
        }
        return found
    }

    private func start(_ operation: Operation) -> Int {
        self.state.withLock { state in
            state.next += 1
            state.operations[state.next] = operation
            return state.next
        }
    }

    private func acknowledge(_ id: Int) {
        self.state.withLock { $0.operations[id]?.isAcknowledged = true }
    }

    private func operation(
        _ node: some WorkloadTarget, using random: inout SeededRandom, clock: (any NodeClock)? = nil,
        kind forced: Int? = nil
    ) async throws {
        let now = Int64(random.next() % 1_000_000)
        var counters = Array(0..<Self.counters).shuffled(using: &random).prefix(Int.random(in: 0...3, using: &random))
        let kind = forced ?? Int.random(in: 0..<11, using: &random)
        if kind < 3 && counters.isEmpty { counters = [Int.random(in: 0..<Self.counters, using: &random)] }
        let deltas = counters.map { ($0, Int64.random(in: -2...5, using: &random)) }
        switch kind {
        case 0..<3:
            // Increments of one or more counters: single-shard, or a multi-shard update.
            let id = self.start(Operation(markers: []))
            try await self.commit(node, id: id, increments: deltas, now: now)
        case 3..<6:
            // A compare-and-set on a register, with increments elsewhere when there are any.
            let register = Int.random(in: 0..<Self.registers, using: &random)
            let id = self.start(Operation(markers: []))
            for _ in 0..<3 {
                let current = node.visible(Self.register(register))
                let value = Self.int(current.child(Key(unchecked: "v")))
                let mutations = [
                    Mutation.set(
                        Self.register(register).appending(Key(unchecked: "v")), WriteValue(node: Node(.int(value + 1)))),
                    Mutation.set(Self.marker(Self.register(register), id), WriteValue(node: Node(.int(1)))),
                ]
                let condition = WriteCondition(path: Self.register(register), expectedHash: current.hash)
                let invoked = clock.map(self.stamp)
                let succeeded: Bool
                do {
                    succeeded = try await self.commit(
                        node, id: id, increments: deltas, extra: mutations, condition: condition, now: now)
                } catch {
                    if let invoked {
                        self.record(
                            register, .compareAndSet(expected: value, new: value + 1, succeeded: nil),
                            invoked: invoked, completed: nil)
                    }
                    throw error
                }
                if let invoked, let clock {
                    self.record(
                        register, .compareAndSet(expected: value, new: value + 1, succeeded: succeeded),
                        invoked: invoked, completed: self.stamp(clock))
                }
                if succeeded { return }
            }
        case 6..<8:
            // A spine leaf (every shard's copy changes), with increments: a transaction over every shard.
            let id = self.start(Operation(markers: []))
            let meta = "o\(id)"
            self.state.withLock { $0.operations[id]?.meta = meta }
            try await self.commit(
                node, id: id, increments: deltas,
                extra: [.set(Fixture.path("meta"), WriteValue(node: Node(.string(meta))))], now: now)
        case 8:
            // Data below the spine leaf `meta`: escalates to every shard while `meta` is a leaf.
            let id = self.start(Operation(markers: []))
            let path = Fixture.path("meta/x\(Int.random(in: 0..<4, using: &random))/o\(id)")
            try await self.commit(
                node, id: id, increments: [], extra: [.set(path, WriteValue(node: Node(.bool(true))))], now: now)
        case 9:
            // A priority on a spine node: above every counter, or above children that come and go.
            let id = self.start(Operation(markers: []))
            let priority = Node(.int(Int64.random(in: 0...3, using: &random)))
            let path = Fixture.path(Bool.random(using: &random) ? "c" : "s")
            try await self.commit(
                node, id: id, increments: [], extra: [.setPriority(path, WriteValue(node: priority))], now: now)
        default:
            // A child of the spine node `s` appears or goes (so shards gain and lose their part of it).
            let id = self.start(Operation(markers: []))
            let path = Fixture.path("s/k\(Int.random(in: 0..<8, using: &random))")
            let value = Bool.random(using: &random) ? Node(.bool(true)) : .empty
            try await self.commit(node, id: id, increments: [], extra: [.set(path, WriteValue(node: value))], now: now)
        }
    }

    private func record(
        _ register: Int, _ kind: RegisterOperation<Int64>.Kind, invoked: UInt64, completed: UInt64?
    ) {
        let operation = RegisterOperation(client: 0, kind: kind, invokedAt: invoked, completedAt: completed)
        self.histories.withLock { $0[register, default: []].append(operation) }
    }

    /// `clock`'s time as nanoseconds since the workload was made.
    private func stamp(_ clock: any NodeClock) -> UInt64 {
        let elapsed = clock.now - self.epoch
        let nanoseconds = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
        return UInt64(max(0, nanoseconds))
    }

    /// A node's integer value (0 when it holds none).
    static func int(_ node: Node) -> Int64 {
        if case .int(let value)? = node.leafValue { value } else { 0 }
    }

    private static func marker(_ parent: Path, _ id: Int) -> Path {
        parent.appending(Key(unchecked: "ops")).appending(Key(unchecked: "o\(id)"))
    }

    /// Writes the increments (each with its marker) plus `extra` as one write; records the markers first, and the
    /// acknowledgement when it commits.
    /// - Returns: false when the condition failed.
    @discardableResult
    private func commit(
        _ node: some WorkloadTarget, id: Int, increments: [(Int, Int64)], extra: [Mutation] = [],
        condition: WriteCondition? = nil, now: Int64
    ) async throws -> Bool {
        var mutations = extra
        var markers = extra.map(\.path).filter { $0.count == 4 && $0.keys[2].string == "ops" }
        for (counter, delta) in increments {
            let serverValue = try WriteValue.parseWrite(Array(#"{".sv":{"increment":\#(delta)}}"#.utf8), depth: 3)
            mutations.append(.set(Self.counter(counter).appending(Key(unchecked: "n")), serverValue))
            mutations.append(.set(Self.marker(Self.counter(counter), id), WriteValue(node: Node(.int(delta)))))
            markers.append(Self.marker(Self.counter(counter), id))
        }
        self.state.withLock { $0.operations[id]?.markers = markers }
        switch try await node.perform(mutations, condition: condition, now: now) {
        case .committed:
            self.acknowledge(id)
            return true
        case .conditionFailed:
            return false
        }
    }
}
