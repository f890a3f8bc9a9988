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

    /// One look, while the member holds: what `/.ready` answers now, given to the hold's decision; logs when the
    /// member began to serve, after how long, and why.
    func lookAtCatchUp() {
        let reason = self.notReadyReason
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
