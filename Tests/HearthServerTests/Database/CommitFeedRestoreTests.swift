import HearthCore
import HearthTestKit
import HearthWire
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// A shard that catches up by a snapshot instead of its entries: the snapshot is shown once the other shards have
/// caught up with its cut, together with the transactions it holds part of, and the view stays the union of the
/// shards with every transaction all or nothing.
@Suite struct CommitFeedRestoreTests {
    private static let router = ShardRouter(shardCount: 4, shardDepth: 2)

    /// `p/k<n>` for the first n whose subtree shard `shard` owns when two shards split the namespace.
    private static func key(_ shard: Int) -> String {
        let router = ShardRouter(shardCount: 2, shardDepth: 2)
        let owned = (0...).lazy.map { "p/k\($0)" }.first {
            router.shard(namespace: "default", path: Fixture.path($0)) == shard
        }
        return owned ?? "p"
    }

    /// Shard `shard`'s snapshot at `index` holding `value` at its key, cut where the other shard stood at `cut`.
    private static func snapshot(_ shard: Int, at index: UInt64, _ value: String, cut: UInt64) throws
        -> ShardSnapshot
    {
        var tree = Node.empty
        tree.set(try Fixture.node(value), at: Fixture.path(Self.key(shard)))
        let machine = ShardStateMachine(
            shard: shard, spineDepth: 2, trees: ["default": tree], index: index, intents: [:])
        return ShardSnapshot(machine: machine, decisions: [:], cut: [1 - shard: cut])
    }

    private static func write(_ shard: Int, _ index: UInt64, _ relative: String, _ value: Int64) -> ShardApplied {
        let path = Fixture.path(Self.key(shard) + "/" + relative)
        let change = ShardChange(namespace: "default", mutations: [.set(path, Node(.int(value)))], increments: [:])
        return ShardApplied(shard: shard, index: index, effect: .write(change))
    }

    private static func finished(_ shard: Int, _ index: UInt64, _ transaction: UInt64, _ relative: String)
        -> ShardApplied
    {
        let path = Fixture.path(Self.key(shard) + "/" + relative)
        let change = ShardChange(namespace: "default", mutations: [.set(path, Node(.int(1)))], increments: [:])
        let part = ShardTransactionPart(participants: [0, 1], change: change)
        return ShardApplied(
            shard: shard, index: index,
            effect: .finished(TransactionID(rawValue: transaction), decision: nil, committed: part))
    }

    /// What the view shows of `shard`'s key.
    private static func shown(_ state: ViewState, _ shard: Int) -> String {
        Fixture.json((state.roots["default"] ?? .empty).node(at: Fixture.path(Self.key(shard))))
    }

    @Test func aSnapshotIsShownOnceEveryOtherShardReachedItsCutAndTheEntriesAfterItFollow() throws {
        var state = ViewState(roots: [:], feed: CommitFeed(appliedIndex: [0, 0]))
        _ = state.receive([Self.write(1, 1, "x", 1)])
        _ = state.restore(try Self.snapshot(0, at: 5, #"{"x":5}"#, cut: 2))
        _ = state.receive([Self.write(0, 6, "y", 6)])
        #expect(Self.shown(state, 0) == "null", "shard 1 has not reached the cut yet")
        #expect(state.feed.appliedIndex == [0, 1])
        _ = state.receive([Self.write(1, 2, "y", 2)])
        #expect(Self.shown(state, 0) == #"{"x":5,"y":6}"#)
        #expect(Self.shown(state, 1) == #"{"x":1,"y":2}"#)
        #expect(state.feed.appliedIndex == [6, 2])
        #expect(state.feed.isQuiescent)
    }

    @Test func aTransactionWhosePartASnapshotHoldsIsShownWithTheSnapshot() throws {
        var state = ViewState(roots: [:], feed: CommitFeed(appliedIndex: [0, 0]))
        _ = state.receive([Self.finished(1, 1, 9, "t")])
        #expect(Self.shown(state, 1) == "null", "the other part is not in yet")
        _ = state.restore(try Self.snapshot(0, at: 3, #"{"t":1}"#, cut: 1))
        #expect(Self.shown(state, 0) == #"{"t":1}"#)
        #expect(Self.shown(state, 1) == #"{"t":1}"#)
        #expect(state.feed.isQuiescent)
    }

    @Test func aSnapshotCoversTheEntriesOfItsShardThatWereWaiting() throws {
        var state = ViewState(roots: [:], feed: CommitFeed(appliedIndex: [0, 0]))
        _ = state.receive([Self.finished(0, 1, 9, "t")])
        _ = state.receive([Self.write(0, 2, "t/u", 2)])
        #expect(Self.shown(state, 0) == "null", "both wait for the transaction's other part")
        _ = state.restore(try Self.snapshot(0, at: 4, #"{"t":{"u":2},"v":4}"#, cut: 1))
        #expect(Self.shown(state, 0) == "null", "the snapshot holds the transaction's part; shard 1 is not there yet")
        _ = state.receive([Self.finished(1, 1, 9, "t")])
        #expect(Self.shown(state, 0) == #"{"t":{"u":2},"v":4}"#)
        #expect(Self.shown(state, 1) == #"{"t":1}"#)
        #expect(state.feed.isQuiescent)
    }

    /// A random run of the real write path (increments, compare-and-sets, multi-shard updates and spine writes), each
    /// shard's log committed in its own order: per shard, what its entries did, and its machine after each entry.
    private struct History {
        var applied: [[ShardApplied]]
        var machines: [[ShardStateMachine]]
        var workload: SimulatedWorkload

        func trees(_ shard: Int, at index: UInt64) -> Node {
            self.machines[shard][Int(index)].trees["default"] ?? .empty
        }
    }

    private static func history(seed: UInt64) throws -> History {
        let simulation = Simulation(router: Self.router, ordering: .perShard, seed: seed)
        let workload = SimulatedWorkload()
        for client in 0..<4 {
            let clientSeed = seed &* 100 &+ UInt64(client)
            simulation.spawn { node in try await workload.client(node, seed: clientSeed, count: 6) }
        }
        simulation.run(.random)
        let count = Self.router.shardCount
        var machines = (0..<count).map { ShardStateMachine(shard: $0, spineDepth: Self.router.shardDepth) }
        var history = History(
            applied: Array(repeating: [], count: count), machines: machines.map { [$0] }, workload: workload)
        for bytes in simulation.records {
            guard case .entry(let shard, let index, let entry) = try ShardLogRecord(decoding: bytes) else { continue }
            history.applied[shard].append(try machines[shard].apply(entry, at: index))
            history.machines[shard].append(machines[shard])
        }
        return history
    }

    /// A node takes every shard's entries in a random interleaving and cuts a snapshot of each shard whenever it can;
    /// a second node takes them in another interleaving, now and then jumping ahead in a shard by one of those
    /// snapshots. After every step no operation is half shown; whenever nothing waits, the view is the union of the
    /// shards where it stands; at the end both nodes show the same. (Swept over 3,000 seeds, and 800 with a jump at
    /// every other step, while it was written.)
    @Test(arguments: 1...40 as ClosedRange<UInt64>)
    func aReplicaThatSkipsAheadBySnapshotsShowsWholeTransactionsAndEndsWhereTheOthersDo(seed: UInt64) async throws {
        let found = try await SimulationLane.run { try Self.simulate(seed: seed) }
        #expect(found.isEmpty, "seed \(seed): \(found.joined(separator: "; "))")
    }

    private static func simulate(seed: UInt64) throws -> [String] {
        let history = try Self.history(seed: seed)
        let count = Self.router.shardCount
        var random = SeededRandom(seed: seed &+ 7)
        var source = ViewState(roots: [:], feed: CommitFeed(appliedIndex: Array(repeating: 0, count: count)))
        var snapshots: [[ShardSnapshot]] = Array(repeating: [], count: count)
        var taken = Array(repeating: UInt64(0), count: count)
        while let shard = Self.pick(taken, of: history, using: &random) {
            _ = source.receive([history.applied[shard][Int(taken[shard])]])
            taken[shard] += 1
            for other in 0..<count {
                guard let capture = source.capture(shard: other),
                    capture.index > (snapshots[other].last?.machine.lastIndex ?? 0)
                else { continue }
                let snapshot = capture.snapshot(router: Self.router)
                // Cut from the view, it is the shard's machine at that index.
                let machine = history.machines[other][Int(capture.index)]
                guard snapshot.machine.trees == machine.trees, snapshot.decisions == machine.decisions,
                    Set(snapshot.machine.intents.keys) == Set(machine.intents.keys)
                else { return ["the snapshot of shard \(other) at \(capture.index) is not its machine there"] }
                snapshots[other].append(snapshot)
            }
        }
        var found: [String] = []
        var replica = ViewState(roots: [:], feed: CommitFeed(appliedIndex: Array(repeating: 0, count: count)))
        var received = Array(repeating: UInt64(0), count: count)
        var restored = 0
        while let shard = Self.pick(received, of: history, using: &random) {
            let ahead = snapshots[shard].filter { $0.machine.lastIndex > received[shard] }
            if !ahead.isEmpty, Int.random(in: 0..<4, using: &random) == 0 {
                let snapshot = ahead[Int.random(in: 0..<ahead.count, using: &random)]
                _ = replica.restore(snapshot)
                received[shard] = snapshot.machine.lastIndex
                restored += 1
            } else {
                _ = replica.receive([history.applied[shard][Int(received[shard])]])
                received[shard] += 1
            }
            found += Self.halfShown(replica.roots["default"] ?? .empty, history.workload)
            if replica.feed.isQuiescent {
                let shown = replica.feed.appliedIndex
                let joined = Node.union((0..<count).map { history.trees($0, at: shown[$0]) })
                if joined != replica.roots["default"] ?? .empty {
                    found.append("at \(shown) the view is not the union of the shards")
                }
            }
            if !found.isEmpty { return found }
        }
        if !replica.feed.isQuiescent { found.append("the replica still waits for \(replica.feed.restores.keys)") }
        if replica.roots != source.roots { found.append("the replica ends with another view") }
        if replica.feed.intents.map({ $0.keys.sorted() }) != source.feed.intents.map({ $0.keys.sorted() }) {
            found.append("the replica ends with other prepared transactions")
        }
        if replica.feed.decisions != source.feed.decisions { found.append("the replica ends with other decisions") }
        if restored == 0, snapshots.contains(where: { !$0.isEmpty }) { found.append("no snapshot was restored") }
        return found
    }

    /// A random shard that has entries left to take.
    private static func pick(_ positions: [UInt64], of history: History, using random: inout SeededRandom) -> Int? {
        let open = positions.indices.filter { Int(positions[$0]) < history.applied[$0].count }
        return open.isEmpty ? nil : open[Int.random(in: 0..<open.count, using: &random)]
    }

    /// Operations some but not all of whose markers `root` shows.
    private static func halfShown(_ root: Node, _ workload: SimulatedWorkload) -> [String] {
        workload.operations.sorted { $0.key < $1.key }.compactMap { id, operation in
            let present = operation.markers.filter { !root.node(at: $0).isEmpty }.count
            return present == 0 || present == operation.markers.count
                ? nil : "operation \(id) shows \(present) of \(operation.markers.count) parts"
        }
    }
}
