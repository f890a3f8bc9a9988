import HearthCluster
import HearthDatabase
import HearthTestKit

@testable import HearthReplication
@testable import HearthServer

/// The faults a `ClusterSimulation` strikes while its clients run: crashes (some in the middle of a disk write,
/// tearing the batch), restarts, symmetric, asymmetric and isolated-leader partitions, healing, and clock jumps.
/// The network's own loss, duplication and delay are set per seed when the simulation is made.
extension ClusterSimulation {
    /// Strikes one fault, picked by the seeded generator.
    func strikeFault() throws {
        let up = self.machines.filter(\.isUp)
        switch Int.random(in: 0..<10, using: &self.random) {
        case 0, 1, 2:
            guard let machine = up.randomElement(using: &self.random) else { return }
            if Bool.random(using: &self.random) {
                // Its power goes while its disk writes the next batch (`crashWhileWriting`).
                machine.diesWhileWriting = true
            } else {
                self.crash(machine, midWrite: false)
                self.scheduleRestart(machine)
            }
        case 3:
            // One node cut off from the rest, both ways.
            guard let machine = self.machines.randomElement(using: &self.random) else { return }
            self.partition([machine.id], from: self.machines.map(\.id))
        case 4:
            // A shard's leader cut off from its followers: it must stop acknowledging, and they elect another.
            let group = RaftGroupID(UInt32(Int.random(in: 0..<self.router.shardCount, using: &self.random)))
            let leader = up.first { $0.database.current?.service.host(group)?.softState.role == .leader }
            guard let leader else { return }
            self.partition([leader.id], from: self.machines.map(\.id))
        case 5:
            // One direction only: the node hears the others, they do not hear it.
            let ids = self.machines.map(\.id).shuffled(using: &self.random)
            guard ids.count >= 2 else { return }
            for other in ids.dropFirst() {
                self.raftNetwork.cutLink(from: ids[0], to: other)
                self.callNetwork.cutLink(from: ids[0], to: other)
            }
            self.statistics.partitions += 1
        case 6, 7:
            self.raftNetwork.heal()
            self.callNetwork.heal()
        case 8:
            // The machine was paused (or its clock stepped): every timer it has fires late, at once.
            guard let machine = up.randomElement(using: &self.random) else { return }
            machine.skew += .milliseconds(Int64.random(in: 50...3_000, using: &self.random))
            machine.clock.advance(to: self.time + machine.skew)
            self.statistics.clockJumps += 1
        default:
            return
        }
    }

    /// Cuts `machine`'s power while its disk writes what it has pending: part of the batch reaches the disk,
    /// none of it synced.
    func crashWhileWriting(_ machine: SimulatedMachine) {
        machine.diesWhileWriting = false
        self.crash(machine, midWrite: true)
        self.scheduleRestart(machine)
    }

    private func scheduleRestart(_ machine: SimulatedMachine) {
        machine.restartAt = self.time + .milliseconds(Int64.random(in: 50...2_000, using: &self.random))
    }

    private func partition(_ side: [NodeID], from all: [NodeID]) {
        let others = all.filter { !side.contains($0) }
        self.raftNetwork.partition(side, from: others)
        self.callNetwork.partition(side, from: others)
        self.statistics.partitions += 1
    }

    /// Ends the faults: the network heals and delivers everything, every crashed machine restarts.
    func heal() throws {
        self.faultsActive = false
        self.raftNetwork.heal()
        self.callNetwork.heal()
        self.raftNetwork.faults = .init(dropRate: 0, duplicateRate: 0, delay: 1...5)
        self.callNetwork.faults = .init(dropRate: 0, duplicateRate: 0, delay: 1...5)
        for machine in self.machines where !machine.isUp { self.start(machine) }
    }
}
