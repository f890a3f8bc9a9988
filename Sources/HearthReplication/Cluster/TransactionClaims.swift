import HearthCluster
import HearthDatabase

/// What the cluster's coordinators answered about transactions left in the shards: those some node still runs
/// (`RunningTransactions`), and whether every member answered.
struct TransactionClaims: Sendable, Equatable {
    var claimed: Set<TransactionID>
    /// Every member answered, or could not be reached at all; false when one was asked and did not answer in
    /// time (it may run any of the transactions).
    var isComplete: Bool

    /// An answer that tells nothing: the resolver then waits out `IntentResolver.resolveAfter`.
    static let unknown = TransactionClaims(claimed: [], isComplete: false)

    /// Those of `transactions` no coordinator runs; none unless every member answered, or `trustingSilence`: a
    /// member that stayed silent counts as running none of them (see `IntentResolver.silenceAfter`).
    func orphans(among transactions: some Sequence<TransactionID>, trustingSilence: Bool = false) -> [TransactionID] {
        guard self.isComplete || trustingSilence else { return [] }
        return transactions.filter { !self.claimed.contains($0) }
    }
}

/// Asks this node's coordinator and every other member's which of some transactions they still run.
///
/// A member the transport cannot reach (its connection is down: the process died or restarted, or it is cut off)
/// runs nothing that can still finish here, so it counts as claiming nothing; aborting a transaction whose
/// coordinator is only cut off is safe (the anchor's first decision wins) and costs that write a retry. A member
/// that does not answer within `timeout` leaves the answer incomplete.
struct ClaimsQuestion: Sendable {
    let node: NodeID
    let running: RunningTransactions
    let calls: ShardCalls
    /// The cluster's members now.
    let members: @Sendable () -> [NodeID]
    let timeout: Duration

    func ask(_ transactions: [TransactionID]) async -> TransactionClaims {
        var claims = TransactionClaims(claimed: Set(self.running.claimed(among: transactions)), isComplete: true)
        await withTaskGroup(of: [TransactionID]?.self) { group in
            for peer in self.members() where peer != self.node {
                group.addTask {
                    do {
                        let outcome = try await self.calls.call(
                            .claims(transactions), shard: 0, to: peer, timeout: self.timeout)
                        guard case .claimed(let claimed) = outcome else { return nil }
                        return claimed
                    } catch let error as ShardCallError {
                        switch error.kind {
                        case .unreachable, .connectionLost: return []
                        case .noLeader, .timedOut, .deposed, .failed: return nil
                        }
                    } catch {
                        return nil
                    }
                }
            }
            for await answer in group {
                guard let answer else {
                    claims.isComplete = false
                    continue
                }
                claims.claimed.formUnion(answer)
            }
        }
        return claims
    }
}
