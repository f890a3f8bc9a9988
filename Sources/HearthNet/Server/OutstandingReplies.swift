import HearthSystem

/// Requests handed to the application whose replies have not come back yet (`HTTPRequestHandler.handle(batch:
/// ordered:reply:)` may return before them): at shutdown the server waits for them, as for its request tasks, before
/// it gives its connections a deadline to close, so a write in flight is still answered.
final class OutstandingReplies: Sendable {
    private struct State {
        var count = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
        /// The server takes no more requests: no batch is handed over at once any more.
        var isClosed = false
    }

    private let state = Lock(State())

    /// A batch was handed to the application.
    func begin() {
        self.state.withLock { $0.count += 1 }
    }

    /// A batch is about to be offered to the application on the reactor thread
    /// (`HTTPRequestHandler.handleAtOnce`); false once the server takes no more requests (`close()`), so that a
    /// batch never starts after the server stopped waiting for replies.
    func beginAtOnce() -> Bool {
        self.state.withLock { state in
            guard !state.isClosed else { return false }
            state.count += 1
            return true
        }
    }

    /// The server's request stream has ended: batches are no longer handed over, at once or otherwise.
    func close() {
        self.state.withLock { $0.isClosed = true }
    }

    /// A batch's replies came back (or a batch offered at once was declined).
    func end() {
        let waiters = self.state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.count -= 1
            guard state.count == 0 else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once every batch handed over has its replies.
    func wait() async {
        await withCheckedContinuation { continuation in
            let isIdle = self.state.withLock { state -> Bool in
                if state.count > 0 { state.waiters.append(continuation) }
                return state.count == 0
            }
            if isIdle { continuation.resume() }
        }
    }
}
