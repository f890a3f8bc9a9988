import HearthCluster
import HearthCore
import HearthTestKit
import Synchronization

@testable import HearthDatabase
@testable import HearthReplication
@testable import HearthServer

/// What a `ClusterSimulation` checks: while it runs, at most one leader per group and term and the same entry at
/// every index on every replica; after healing, that the cluster converges (every node ready, every client done,
/// every node showing the same data, no transaction left prepared), and that the data keeps the workload's
/// invariants (every acknowledged operation present, every operation all or nothing, counters exact), and each
/// register's history of reads and compare-and-sets is linearizable.
extension ClusterSimulation {
    /// At most one leader per group and term, among the machines running.
    func checkLeaders() throws {
        for machine in self.machines where machine.isUp {
            guard let service = machine.database.current?.service else { continue }
            for group in service.groups {
                guard let state = service.host(group)?.softState, state.role == .leader else { continue }
                if let other = self.leaders[group]?[state.term], other != machine.id {
                    throw self.failure(
                        "group \(group.rawValue) has two leaders in term \(state.term): \(other) and \(machine.id)")
                }
                if self.leaders[group, default: [:]][state.term] == nil {
                    self.leaders[group, default: [:]][state.term] = machine.id
                    self.statistics.elections += 1
                }
            }
        }
        if let conflict = self.applied.conflict { throw self.failure(conflict) }
    }

    /// Runs the healed cluster until it converges.
    /// - Throws: `Failure` when it has not within `options.convergence`.
    func converge() throws {
        let deadline = self.time + self.options.convergence
        var checked = self.time
        while true {
            if self.executor.runnableCount == 0 && self.time > checked {
                checked = self.time
                var reason = self.notConvergedReason
                if reason == nil {
                    let leftovers = self.leftoverTransactions()
                    if leftovers.isEmpty { return }
                    reason = leftovers.joined(separator: "; ")
                }
                if let reason, self.time >= deadline {
                    throw self.failure(
                        "the healed cluster did not converge in \(self.options.convergence): \(reason); \(self.diagnosis)"
                    )
                }
            }
            try self.step(end: deadline + .milliseconds(1))
        }
    }

    /// Why the cluster has not converged yet, or nil once it has.
    private var notConvergedReason: String? {
        let clients = self.options.clients > 0 ? self.options.clients + 2 : 0
        if self.clientsFinished.value < clients {
            return "\(clients - self.clientsFinished.value) clients are still waiting"
        }
        var roots: [(NodeID, Node)] = []
        for machine in self.machines where machine.refusal.current == nil {
            guard let database = machine.database.current else { return "\(machine.id) is not open yet" }
            if let reason = database.notReadyReason(allowingLag: 0) { return "\(machine.id): \(reason)" }
            roots.append((machine.id, database.view.root("default")))
        }
        if let (first, root) = roots.first, let (other, _) = roots.first(where: { $0.1 != root }) {
            return "\(first) and \(other) show different data"
        }
        return nil
    }

    /// What every machine is doing, for a failure's message.
    var diagnosis: String {
        let machines = self.machines.map { machine -> String in
            guard machine.isUp else { return "\(machine.id) down" }
            guard let database = machine.database.current else { return "\(machine.id) opening" }
            return
                "\(machine.id) (\(database.notReadyReason(allowingLag: 0) ?? "ready"), \(database.log.waitingCount) commit waits, "
                + "\(database.view.waitingCount) view waits \(database.view.awaitedIndexes) shown \(database.view.shownIndexes) held \(database.view.heldEntries), \(database.calls.inFlight) calls out, \(machine.requestsInFlight) client requests)"
        }
        return machines.joined(separator: ", ")
            + "; \(self.executor.runnableCount) runnable jobs, \(self.clientClock.sleeping) clients asleep"
    }

    /// The final checks on a converged cluster.
    func checkFinal() throws {
        for machine in self.machines {
            if let refusal = machine.refusal.current { throw self.failure(refusal) }
        }
        guard let root = self.machines.first?.database.current?.view.root("default") else {
            throw self.failure("no machine is open after convergence")
        }
        let violations = self.workload.violations(in: root)
        if !violations.isEmpty { throw self.failure(violations.joined(separator: "; ")) }
        if let conflict = self.applied.conflict { throw self.failure(conflict) }
        for (register, history) in self.workload.registerHistories.sorted(by: { $0.key < $1.key }) {
            self.statistics.registerOperations += history.count
            if case .notLinearizable(let placed) = LinearizabilityChecker.check(history, initial: 0) {
                throw self.failure(
                    "register \(register)'s \(history.count) reads and compare-and-sets are not linearizable (the "
                        + "longest order found places \(placed)): \(history)")
            }
        }
        let operations = self.workload.operations.values
        self.statistics.operations = operations.count
        self.statistics.acknowledged = operations.filter(\.isAcknowledged).count
        self.statistics.simulated = self.time
    }

    /// Transactions still prepared or read locks still held on any shard of any machine.
    func leftoverTransactions() -> [String] {
        let found = Slot<[String]>()
        let machines = self.machines
        Task(executorPreference: self.executor) {
            var leftovers: [String] = []
            for machine in machines {
                guard let database = machine.database.current else { continue }
                for (shard, actor) in database.actors.enumerated() {
                    let intents = await actor.intents
                    if !intents.isEmpty {
                        leftovers.append("\(machine.id) still has \(intents.count) prepared parts on shard \(shard)")
                    }
                }
            }
            found.set(leftovers)
        }
        while found.current == nil, self.executor.runAny(using: &self.random) {}
        return found.current ?? ["the leftover check did not finish"]
    }

    func failure(_ message: String) -> Failure {
        Failure(seed: self.seed, time: self.time, message: message)
    }
}

/// Every entry any replica was handed to apply, by group and index: replicas must all apply the same entry at an
/// index (committed entries are never lost or changed).
final class AppliedEntries: Sendable {
    private struct State {
        var entries: [RaftGroupID: [UInt64: RaftEntry]] = [:]
        var conflict: String?
    }

    private let state = Mutex(State())

    /// Notes the entries `node` applies to `group`'s shard.
    func record(_ entries: [RaftEntry], group: RaftGroupID, node: NodeID) {
        self.state.withLock { state in
            for entry in entries {
                if let earlier = state.entries[group]?[entry.index] {
                    if earlier != entry && state.conflict == nil {
                        state.conflict =
                            "\(node) applied entry \(entry.index) of group \(group.rawValue) in term \(entry.term), "
                            + "another replica applied one of term \(earlier.term) there"
                    }
                } else {
                    state.entries[group, default: [:]][entry.index] = entry
                }
            }
        }
    }

    /// The first disagreement found, if any.
    var conflict: String? { self.state.withLock { $0.conflict } }
}
