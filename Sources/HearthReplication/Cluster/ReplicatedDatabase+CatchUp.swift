import HearthCluster
import HearthNet
import HearthSystem
import Synchronization

/// The shell of `CatchUpHold`: `run()` looks whether the member has caught up every 100 ms until it serves, and the
/// front ends wait in `waitUntilServing()` before they take a client's request.
extension ReplicatedDatabase {
    /// How often a held request looks whether it may go on.
    static let catchUpLook = Duration.milliseconds(25)

    /// Whether the member takes its clients' requests (it has caught up since it started, or the hold ran out).
    var isServing: Bool { self.serving.load(ordering: .acquiring) }

    /// One look, while the member holds: whether it is still catching up — what `/.ready` answers now, but for what
    /// waiting cannot end (a shard that stopped applying, a failed log) — given to the hold's decision; logs when the
    /// member began to serve, after how long, and why.
    func lookAtCatchUp() {
        let reason = self.notReadyReason(allowingLag: Self.readyLag, countingStops: false) ?? self.leadersAheadReason
        let decision = self.catchUp.withLock { $0.decide(now: self.log.clock.now, caughtUp: reason == nil) }
        guard case .serve(began: true) = decision else { return }
        self.serving.store(true, ordering: .releasing)
        let held = self.catchUp.withLock { $0.heldFor } ?? .zero
        let milliseconds = "\(held.reactorNanoseconds / 1_000_000)"
        let requests = "\(self.requestsHeld.load(ordering: .relaxed))"
        guard let reason else {
            self.logger.info(
                "cluster.serving", ["caught_up": "true", "held_ms": milliseconds, "requests_held": requests])
            return
        }
        self.logger.warning(
            "cluster.serving",
            [
                "caught_up": "false", "held_ms": milliseconds, "requests_held": requests, "not_ready": reason,
                "action": "none needed; it serves while it catches up, as without --catch-up-hold-seconds",
            ])
    }

    /// Why the member has not caught up with its shards' leaders' commit indexes as they gave them after it opened
    /// (`CatchUpHold.lagging`); nil once it has. A halted shard does not count (waiting does not end a halt).
    private var leadersAheadReason: String? {
        let shards = self.shardGroups.compactMap { group -> Int? in
            guard let host = self.service.host(group), host.halt == nil else { return nil }
            return Int(group.rawValue)
        }
        let lagging = self.catchUp.withLock { hold in
            hold.lagging(shards, allowance: Self.readyLag) { self.log.delivered(shard: $0) }
        }
        guard let lagging else { return nil }
        guard let target = lagging.target else {
            return "Shard \(lagging.shard) is catching up: its leader has not said yet how far it committed."
        }
        return "Shard \(lagging.shard) is catching up: applied through \(self.log.delivered(shard: lagging.shard)) of "
            + "\(target) entries its leader committed."
    }

    /// Until the member serves, asks each shard's leader how far it committed (a read index), again every
    /// `catchUpLook` for the shards not answered yet (no leader yet, or no answer in time), and keeps the answers
    /// in the hold.
    func learnLeaderCommits() async {
        while !self.isServing {
            let known = self.catchUp.withLock { Set($0.leaderCommits.keys) }
            let asked = self.shardGroups.filter { !known.contains(Int($0.rawValue)) }
            await withTaskGroup(of: Void.self) { tasks in
                for group in asked {
                    guard let host = self.service.host(group) else { continue }
                    tasks.addTask {
                        guard let index = try? await host.readIndex(timeoutTicks: Self.leaderCommitTicks) else {
                            return
                        }
                        self.catchUp.withLock { $0.learned(shard: Int(group.rawValue), leaderCommit: index) }
                    }
                }
            }
            guard (try? await self.log.clock.sleep(for: Self.catchUpLook)) != nil else { return }
        }
    }

    /// How many Raft ticks a catching-up member waits for a leader's commit index before it asks again.
    static let leaderCommitTicks = 10

    /// Returns once the member takes its clients' requests: at once when it serves; while it catches up after it
    /// started, when it has (or the hold runs out). Nothing is refused: a held request only starts later.
    func waitUntilServing() async {
        guard !self.isServing else { return }
        self.requestsHeld.add(1, ordering: .relaxed)
        let deadline = self.catchUp.withLock { $0.deadline }
        while !self.isServing, self.log.clock.now < deadline {
            guard (try? await self.log.clock.sleep(for: Self.catchUpLook)) != nil else { return }
        }
        // The hold ran out before the next look: end it now, so later requests take the fast path at once.
        if !self.isServing { self.lookAtCatchUp() }
    }

    /// How long the member held its clients' requests after it started, once it serves (for `/.metrics`).
    var catchUpHeldFor: Duration? { self.catchUp.withLock { $0.heldFor } }
}
