import HearthSystem

/// The one wake-up every Raft group of a node shares when a `RaftTurnDriver` drives them: a group with new input (a
/// tick, a peer's message, a proposal) marks itself here and wakes the driver, which takes every marked group in one
/// turn. A mark made while a turn runs is kept for the next one, so no input is left without a Ready.
package final class RaftTurnSignal: Sendable {
    /// The groups marked since the driver last took them, in the order they were first marked.
    private struct Marks {
        var order: [RaftGroupID] = []
        var set: Set<RaftGroupID> = []
    }

    /// The marks, shared by the threads that mark and the driver that takes them.
    private let marked = Lock(Marks())
    /// Wakes the driver; holds at most one wake-up, however many marks came while it worked.
    private let continuation: AsyncStream<Void>.Continuation
    /// What the driver waits on.
    let wakeups: AsyncStream<Void>

    package init() {
        (self.wakeups, self.continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Notes that `group` may have a Ready and wakes the driver.
    func mark(_ group: RaftGroupID) {
        let isNew = self.marked.withLock { marked in
            guard marked.set.insert(group).inserted else { return false }
            marked.order.append(group)
            return true
        }
        if isNew { self.continuation.yield() }
    }

    /// The groups marked since the last call, oldest mark first; the marks are cleared.
    func take() -> [RaftGroupID] {
        self.marked.withLock { marked in
            defer {
                marked.order = []
                marked.set = []
            }
            return marked.order
        }
    }

    /// Ends the driver's wait for good (the node is stopping).
    func finish() {
        self.continuation.finish()
    }
}
