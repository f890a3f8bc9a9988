import HearthCore
import HearthWire
import Synchronization
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// One step at a time: a write, or a look at the shards, run to the end in order before the call returns.
extension Simulation {
    /// Submits a write through the coordinator and runs until nothing is left to do.
    /// - Returns: its outcome, or nil (with an issue recorded) when it did not finish.
    @discardableResult
    func write(
        _ mutations: [Mutation], namespace: String = "default", conditions: [WriteCondition] = [], now: Int64 = 1_000,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> WriteOutcome? {
        let task = self.spawn { node in
            try await node.write(mutations, namespace: namespace, conditions: conditions, now: now)
        }
        self.run()
        let result = task.result.withLock { $0 }
        switch result {
        case .success(let outcome)?:
            return outcome
        case .failure(let error)?:
            Issue.record("the write failed: \(error)", sourceLocation: sourceLocation)
        case nil:
            Issue.record("the write never finished (parked behind a transaction?)", sourceLocation: sourceLocation)
        }
        return nil
    }

    /// Every shard's state machine as it stands.
    var machines: [ShardStateMachine] {
        let task = self.spawn { node in await node.machines() }
        self.run()
        guard let machines = task.value else { preconditionFailure("reading the shards' state did not finish") }
        return machines
    }

    /// The view's data at `path`.
    func visible(_ path: Path, namespace: String = "default") -> Node {
        self.node.visible(path, namespace: namespace)
    }

    /// The committed records' entries, decoded, each with the position of its record (several entries share one
    /// when they were appended together).
    func entries(_ records: [[UInt8]]) throws -> [(record: Int, shard: Int, index: UInt64, entry: ShardEntry)] {
        try records.enumerated().flatMap { position, bytes in
            let record = try ShardLogRecord(decoding: bytes)
            if case .legacy = record { throw SimulationError(description: "a simulated log holds a legacy record") }
            return record.shardEntries.map { (position, $0.shard, $0.index, $0.entry) }
        }
    }
}

/// A simulation found something it cannot go on from.
struct SimulationError: Error, CustomStringConvertible {
    var description: String
}
