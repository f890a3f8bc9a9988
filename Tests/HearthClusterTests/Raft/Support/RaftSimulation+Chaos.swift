import HearthCluster
import HearthTestKit

extension RaftSimulation {
    /// One random action of the chaos phase: mostly proposals, sometimes a fault or an operator action.
    mutating func chaosAction() throws {
        let roll = Int.random(in: 0..<100, using: &self.random)
        switch roll {
        case 0..<45: try self.proposeRandom()
        case 45..<53: self.changePartition()
        case 53..<58: self.crashRandom()
        case 58..<66: try self.restartRandom()
        case 66..<74: try self.compactRandom()
        case 74..<79: try self.changeMembership()
        case 79..<83: try self.transferRandom()
        case 83..<93: try self.readRandom()
        default: self.network.faults = self.randomFaults()
        }
    }

    private mutating func pick(_ candidates: [NodeID]) -> NodeID? {
        candidates.isEmpty ? nil : candidates[Int.random(in: 0..<candidates.count, using: &self.random)]
    }

    private mutating func proposeRandom() throws {
        guard let id = self.currentLeader ?? self.pick(self.liveIDs) else { return }
        self.counter += 1
        let data = Array("s\(self.seed)-p\(self.counter)".utf8)
        let proposal = try self.update(id) { $0.propose(data) }
        self.statistics.proposals += 1
        if case .accepted(let index, let term) = proposal {
            self.replicas[id]?.proposals[index] = (term, data)
        }
    }

    private mutating func changePartition() {
        self.statistics.partitions += 1
        switch Int.random(in: 0..<4, using: &self.random) {
        case 0:
            self.network.heal()
        case 1:
            let shuffled = self.ids.shuffled(using: &self.random)
            let cut = Int.random(in: 1...(self.ids.count / 2), using: &self.random)
            self.network.partition(shuffled[..<cut], from: shuffled[cut...])
        case 2:
            guard let from = self.pick(self.ids), let to = self.pick(self.ids.filter({ $0 != from })) else { return }
            self.network.cutLink(from: from, to: to)
        default:
            guard let leader = self.currentLeader else { return }
            self.network.partition([leader], from: self.ids)
        }
    }

    private mutating func crashRandom() {
        guard let id = self.pick(self.liveIDs) else { return }
        switch Int.random(in: 0..<3, using: &self.random) {
        case 0: self.tornCrashes.insert(id)
        case 1: self.earlyCrashes.insert(id)
        default: self.crash(id)
        }
    }

    private mutating func restartRandom() throws {
        guard let id = self.pick(self.ids.filter { self.replica($0).node == nil }) else { return }
        try self.restart(id)
    }

    /// The application snapshots what it applied and the node drops those entries.
    private mutating func compactRandom() throws {
        guard let id = self.pick(self.liveIDs), var replica = self.replicas[id], var node = replica.node,
            replica.app.index > node.log.snapshot.index
        else { return }
        let metadata = try node.compact(through: replica.app.index)
        replica.disk.snapshot = metadata
        replica.disk.entries.removeAll { $0.index <= metadata.index }
        replica.snapshotApp = replica.app
        replica.node = node
        self.replicas[id] = replica
        self.statistics.compactions += 1
    }

    /// Removes a voter, re-adds a removed node as a learner, or promotes a learner, keeping at least two voters.
    private mutating func changeMembership() throws {
        guard let leader = self.currentLeader, let membership = self.replica(leader).node?.membership else { return }
        let change: RaftConfigurationChange
        if let learner = membership.learners.first {
            change = .addVoter(learner)
        } else if let outsider = self.ids.first(where: { !membership.isMember($0) }) {
            change = .addLearner(outsider)
        } else if membership.voters.count > 2, let voter = self.pick(membership.voters) {
            change = .removeMember(voter)
        } else {
            return
        }
        if case .accepted = try self.update(leader, { $0.proposeConfigurationChange(change) }) {
            self.statistics.membershipChanges += 1
        }
    }

    private mutating func transferRandom() throws {
        guard let leader = self.currentLeader, let voters = self.replica(leader).node?.membership.voters,
            let target = self.pick(voters.filter { $0 != leader })
        else { return }
        try self.update(leader) { try? $0.transferLeadership(to: target) }
        self.statistics.transfers += 1
    }

    private mutating func readRandom() throws {
        guard let id = self.pick(self.liveIDs) else { return }
        self.counter += 1
        let context = Array("r\(self.counter)".utf8)
        self.replicas[id]?.reads[context] = self.highestCommitted
        try self.update(id) { try? $0.readIndex(context: context) }
        self.statistics.reads += 1
    }
}
