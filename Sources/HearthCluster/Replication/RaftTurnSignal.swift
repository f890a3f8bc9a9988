import HearthSystem

/// The one wake-up every Raft group of a node shares when a `RaftTurnDriver` drives them: a group with new input (a
/// tick, a peer's message, a proposal) marks itself here and wakes the driver, which takes every marked group in one
/// turn. A mark made while a turn runs is kept for the next one, so no input is left without a Ready.
package final class RaftTurnSignal: Sendable {
    /// The groups marked since the driver last took them, in the order they were first marked; and the holds on
    /// wake-ups (`hold`), with whether a mark came under them.
    private struct Marks {
        var order: [RaftGroupID] = []
        var set: Set<RaftGroupID> = []
        var holds = 0
        var wakeHeld = false
    }

    private let marked = Lock(Marks())
    /// Wakes the driver; holds at most one wake-up, however many marks came while it worked.
    private let continuation: AsyncStream<Void>.Continuation
    /// What the driver waits on.
    let wakeups: AsyncStream<Void>

    package init() {
        (self.wakeups, self.continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Notes that `group` may have a Ready and wakes the driver (at the end of the holds, while one is held).
    func mark(_ group: RaftGroupID) {
        let wakes = self.marked.withLock { marked in
            guard marked.set.insert(group).inserted else { return false }
            marked.order.append(group)
            guard marked.holds == 0 else {
                marked.wakeHeld = true
                return false
            }
            return true
        }
        if wakes { self.continuation.yield() }
    }

    /// Holds the driver's wake-up until `release`: the peer transport holds it while it delivers the frames of one
    /// read, so a read carrying several groups' messages wakes the driver once, for all of them.
    func hold() {
        self.marked.withLock { $0.holds += 1 }
    }

    /// Ends a `hold`; the last one wakes the driver if a mark came meanwhile.
    func release() {
        let wakes = self.marked.withLock { marked in
            marked.holds = max(marked.holds - 1, 0)
            guard marked.holds == 0, marked.wakeHeld else { return false }
            marked.wakeHeld = false
            return true
        }
        if wakes { self.continuation.yield() }
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
