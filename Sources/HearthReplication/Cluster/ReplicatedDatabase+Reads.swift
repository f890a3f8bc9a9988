import HearthCluster
import HearthCore
import HearthDatabase
import HearthSystem

/// Linearizable reads on any node: before a read is served, each shard it touches confirms its commit index through
/// its leader (Raft's read index, thesis §6.4), and the read waits until this node's view shows that shard's log
/// through it. So a read anywhere reflects every write acknowledged anywhere before it began; concurrent reads of a
/// shard share one read-index round (`ReadIndexRounds`).
extension ReplicatedDatabase {
    /// Returns once the view reflects every write acknowledged before the call in the shards `path` touches: the
    /// shard owning it, or every shard for a spine path.
    /// - Throws: `ReadUnavailableError` when a shard's read index or this node's catching up with it takes longer
    ///   than `readTimeout`.
    func readBarrier(namespace: String, path: Path) async throws {
        let router = self.log.router
        let deadline = self.log.clock.now + self.readTimeout
        if let shard = router.shard(namespace: namespace, path: path) {
            try await self.readBarrier(shard: shard, deadline: deadline)
            return
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for shard in 0..<router.shardCount {
                group.addTask { try await self.readBarrier(shard: shard, deadline: deadline) }
            }
            try await group.waitForAll()
        }
    }

    /// Takes `shard`'s read index and waits until the view shows the shard's log through it.
    /// - Throws: `ShardHaltedError` at once when this node's replica of the shard stopped applying its log.
    private func readBarrier(shard: Int, deadline: ContinuousClock.Instant) async throws {
        try self.log.refuseIfHalted(shard: shard)
        let index: UInt64
        do {
            index = try await self.service.readIndex(RaftGroupID(UInt32(shard)), timeout: self.readTimeout)
        } catch {
            let reason: ReadUnavailableError.Reason
            switch error {
            case .noLeader: reason = .noLeader
            case .timedOut: reason = .leaderUnconfirmed
            case .stopped: reason = .stopping
            }
            throw ReadUnavailableError(shard: shard, reason: reason, waited: self.readTimeout)
        }
        let isShown: Bool
        do {
            isShown = try await self.view.waitUntilShown(shard: shard, position: index, deadline: deadline)
        } catch {
            throw ReadUnavailableError(shard: shard, reason: .stopping, waited: self.readTimeout)
        }
        guard isShown else { throw ReadUnavailableError(shard: shard, reason: .catchingUp, waited: self.readTimeout) }
    }
}
