import HearthSystem
import Synchronization

/// The reactor's running totals, updated on the reactor thread and read from anywhere for `NetworkStatistics`.
final class NetworkCounters: Sendable {
    let acceptedConnections = Atomic<UInt64>(0)
    let openConnections = Atomic<Int>(0)
    let bytesRead = Atomic<UInt64>(0)
    let bytesWritten = Atomic<UInt64>(0)
    let acceptFailures = Atomic<UInt64>(0)
    let refusedConnections = Atomic<UInt64>(0)
    let idleClosedForRoom = Atomic<UInt64>(0)
    let evictedForMemoryBudget = Atomic<UInt64>(0)
    let evictedForSoftLimit = Atomic<UInt64>(0)
    let parallelFlushes = Atomic<UInt64>(0)
    /// The node's client memory budget, when it has one (its held bytes are reported).
    let budget: ClientMemoryBudget?

    init(budget: ClientMemoryBudget? = nil) {
        self.budget = budget
    }

    var snapshot: NetworkStatistics {
        NetworkStatistics(
            acceptedConnections: self.acceptedConnections.load(ordering: .relaxed),
            openConnections: self.openConnections.load(ordering: .relaxed),
            bytesRead: self.bytesRead.load(ordering: .relaxed),
            bytesWritten: self.bytesWritten.load(ordering: .relaxed),
            acceptFailures: self.acceptFailures.load(ordering: .relaxed),
            refusedConnections: self.refusedConnections.load(ordering: .relaxed),
            idleClosedForRoom: self.idleClosedForRoom.load(ordering: .relaxed),
            clientMemoryBytes: self.budget?.heldBytes ?? 0,
            evictedForMemoryBudget: self.evictedForMemoryBudget.load(ordering: .relaxed),
            evictedForSoftLimit: self.evictedForSoftLimit.load(ordering: .relaxed),
            parallelFlushes: self.parallelFlushes.load(ordering: .relaxed)
        )
    }
}
