import HearthCore
import HearthWire

@testable import HearthDatabase
@testable import HearthServer

/// One incarnation of a node's real write path over a `SimulatedShardLog`: the shards' actors, the coordinator and
/// the read view, wired as `Database.open` wires them.
struct SimulatedNode: WorkloadTarget {
    let router: ShardRouter
    let view: DatabaseView
    let log: SimulatedShardLog
    let shards: [ShardActor]
    let coordinator: Coordinator

    /// A node over `machines` and a view holding `state`, whose log continues after the machines' last indexes and
    /// `sequence` committed records.
    init(
        router: ShardRouter, ordering: SimulatedShardLog.Ordering, machines: [ShardStateMachine], state: ViewState?,
        sequence: UInt64, onApplied: @escaping @Sendable (ViewSnapshot?) -> Void
    ) {
        let view = DatabaseView(shardCount: router.shardCount, wantsCapture: { _ in true }) { _, capture in
            onApplied(capture)
        }
        if let state { view.load(state) }
        let log = SimulatedShardLog(ordering: ordering, lastIndex: machines.map(\.lastIndex), sequence: sequence) {
            batch, sequence in view.receive([batch], through: sequence)
        }
        let shards = ShardActor.actors(for: machines, log: log)
        self.router = router
        self.view = view
        self.log = log
        self.shards = shards
        self.coordinator = Coordinator(router: router, shards: shards, log: log, view: view)
    }

    /// Submits a write, then waits for its outcome.
    func write(
        _ mutations: [Mutation], namespace: String = "default", conditions: [WriteCondition] = [], now: Int64 = 1_000
    ) async throws -> WriteOutcome {
        try await self.coordinator.write(namespace: namespace, mutations: mutations, conditions: conditions, now: now)
    }

    func perform(_ mutations: [Mutation], condition: WriteCondition?, now: Int64) async throws -> WriteOutcome {
        try await self.write(mutations, conditions: condition.map { [$0] } ?? [], now: now)
    }

    /// Every shard's state machine as it stands.
    func machines() async -> [ShardStateMachine] {
        var machines: [ShardStateMachine] = []
        for shard in self.shards { machines.append(await shard.state) }
        return machines
    }

    /// The view's data at `path`.
    func visible(_ path: Path, namespace: String = "default") -> Node {
        self.view.root(namespace).node(at: path)
    }

    func visible(_ path: Path) -> Node {
        self.visible(path, namespace: "default")
    }

    func read(_ path: Path) async throws -> Node {
        self.visible(path)
    }
}
