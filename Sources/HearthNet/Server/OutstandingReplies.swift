import HearthSystem
import Synchronization

/// Requests handed to the application whose replies have not come back yet (`HTTPRequestHandler.handle(batch:
/// ordered:reply:)` may return before them): at shutdown the server waits for them, as for its request tasks, before
/// it gives its connections a deadline to close, so a write in flight is still answered.
///
/// The count is one atomic word (every REST write begins and ends one, on different threads), with a lock only for
/// the shutdown's waiters.
final class OutstandingReplies: Sendable {
    /// Batches whose replies have not come back, times two, plus one once the server takes no more requests
    /// (`close()`): a batch at once checks and joins the count in one step.
    private let state = Atomic<Int>(0)
    private let waiters = Lock<[CheckedContinuation<Void, Never>]>([])

    /// The low bit of `state`: no batch is handed over at once any more.
    private static let closedBit = 1
    /// What one batch adds to `state`.
    private static let one = 2

    /// A batch was handed to the application.
    func begin() {
        self.state.add(Self.one, ordering: .sequentiallyConsistent)
    }

    /// A batch is about to be offered to the application on the reactor thread
    /// (`HTTPRequestHandler.handleAtOnce`); false once the server takes no more requests (`close()`), so that a
    /// batch never starts after the server stopped waiting for replies.
    func beginAtOnce() -> Bool {
        var current = self.state.load(ordering: .sequentiallyConsistent)
        while current & Self.closedBit == 0 {
            let (exchanged, original) = self.state.compareExchange(
                expected: current, desired: current + Self.one, ordering: .sequentiallyConsistent)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// The server's request stream has ended: batches are no longer handed over, at once or otherwise.
    func close() {
        self.state.bitwiseOr(Self.closedBit, ordering: .sequentiallyConsistent)
    }

    /// A batch's replies came back (or a batch offered at once was declined).
    func end() {
        let left = self.state.subtract(Self.one, ordering: .sequentiallyConsistent).newValue
        assert(left >= 0, "OutstandingReplies.end() without a batch begun")
        guard left < Self.one else { return }
        // None is left: whoever waits goes on (taken under the lock `wait` appends under, so none is missed), unless a
        // batch began meanwhile — then its own end resumes them.
        let waiting = self.waiters.withLock { waiters -> [CheckedContinuation<Void, Never>] in
            guard self.state.load(ordering: .sequentiallyConsistent) < Self.one else { return [] }
            defer { waiters = [] }
            return waiters
        }
        for waiter in waiting { waiter.resume() }
    }

    /// Returns once every batch handed over has its replies.
    func wait() async {
        await withCheckedContinuation { continuation in
            let isIdle = self.waiters.withLock { waiters -> Bool in
                let isIdle = self.state.load(ordering: .sequentiallyConsistent) < Self.one
                if !isIdle { waiters.append(continuation) }
                return isIdle
            }
            if isIdle { continuation.resume() }
        }
    }
}
