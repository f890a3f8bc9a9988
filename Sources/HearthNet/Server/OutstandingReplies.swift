import HearthSystem

/// Requests handed to the application whose replies have not come back yet (`HTTPRequestHandler.handle(batch:
/// ordered:reply:)` may return before them): at shutdown the server waits for them, as for its request tasks, before
/// it gives its connections a deadline to close, so a write in flight is still answered.
final class OutstandingReplies: Sendable {
    private struct State {
        var count = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Lock(State())

    /// A batch was handed to the application.
    func begin() {
        self.state.withLock { $0.count += 1 }
    }

    /// A batch's replies came back.
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
