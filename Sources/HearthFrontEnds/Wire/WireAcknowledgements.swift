import HearthCore
import HearthDatabase
import HearthSystem

/// Lets one session pipeline its writes: each put or merge is ordered as it arrives, and answered here, in request
/// order, once its answer is known (committed and shown, refused, or failed), whatever order the answers come in.
///
/// No task waits for each write: an answer arrives as a callback (the write loop's turn, or `PendingWrite.whenDone`)
/// on whichever thread knew it, and whoever finds nobody sending sends every answer now at the head of the queue,
/// then whatever arrived meanwhile, so answers leave in order and never twice. Before handling any request that is
/// not a write, the session calls `barrier()`, which returns once every earlier write has been answered. Listener
/// pushes for a write are queued on the connection before its answer (the view tells listeners before it calls
/// back).
///
/// A session holds at most `maximumUnanswered` writes here: past it the session's task waits for room
/// (`waitForRoom`) and writes are no longer ordered as their frames arrive (`appendIfRoom`), so a client pipelining
/// faster than the node answers is held back by its own message queue (bounded by its bytes) instead of handing the
/// write loop an unbounded backlog.
final class WireAcknowledgements: Sendable {
    /// How many writes one session may have ordered and not yet answered.
    static let maximumUnanswered = 4096

    /// One write waiting for its answer.
    struct Entry: Sendable {
        var id: Int64
        var action: String
        var started: ContinuousClock.Instant
        /// The path named in a `datastale` message.
        var path: Path
        /// A compare-and-set's turn at its location (`ConditionalWriteGate`), ended with its answer.
        var turn: ConditionalWriteTurn? = nil
    }

    /// What became of a write.
    typealias Answer = Result<WriteOutcome, any Error>

    /// A write queued for its answer, and the answer once known; empty once sent. A struct rather than a tuple:
    /// copies, moves and destroys of a tuple of these go through the runtime's generic tuple witnesses.
    private struct Slot {
        var entry: Entry?
        var answer: Answer?
    }

    /// An answered write, ready to send.
    private struct Due {
        var entry: Entry
        var answer: Answer
    }

    private struct State {
        /// Writes not yet answered to the client, in request order, from `head` on (those before it were answered and
        /// are dropped in bulk, `takeFirstAnswered`, their slots empty); the one at `head` is number `first`.
        var entries: [Slot] = []
        var head = 0
        var first: UInt64 = 0
        /// A thread is sending answers (and sends what arrives meanwhile before it stops).
        var isSending = false
        var waiters: [CheckedContinuation<Void, Never>] = []
        /// Waiting for fewer than `maximumUnanswered` entries (`waitForRoom`).
        var roomWaiters: [CheckedContinuation<Void, Never>] = []

        /// Takes the answer at the head of the queue, when it is known. One at a time: gathering the answers due
        /// into an array cost an allocation (made and freed on the commit thread) for every write answered, where a
        /// second turn of an uncontended lock costs less.
        mutating func takeFirstAnswered() -> Due? {
            guard self.head < self.entries.count, case .some = self.entries[self.head].answer else { return nil }
            // The slot stays until the answered ones are dropped in bulk; what it held goes now (an outcome carries
            // the written nodes, a refused compare-and-set the tree's value), so a client that always keeps one write
            // unanswered does not hold dozens of sent answers. Taken out, it is moved rather than copied (a copy
            // retained the entry's path and the answer's outcome, released again when the slot was overwritten); an
            // empty slot holds nothing to retain.
            // Every slot from the head on holds its entry, and this one its answer (checked above).
            guard let entry = self.entries[self.head].entry.take(), let answer = self.entries[self.head].answer.take()
            else {
                preconditionFailure("the answered slot at the head of a session's acknowledgements held no entry")
            }
            self.head += 1
            self.first += 1
            // Dropped when all are answered (the array keeps its room for the next), or once the answered ones are
            // half of it: amortized O(1) a write, where removing each from the front moved every one behind it.
            if self.head == self.entries.count {
                self.entries.removeAll(keepingCapacity: true)
                self.head = 0
            } else if self.head >= State.dropsAtLeast, self.head * 2 >= self.entries.count {
                self.entries.removeFirst(self.head)
                self.head = 0
            }
            return Due(entry: entry, answer: answer)
        }

        /// The fewest answered entries dropped from the front at once while others wait.
        static let dropsAtLeast = 64

        /// How many writes are queued and not answered to the client.
        var unanswered: Int { self.entries.count - self.head }

        /// Where write `number` is in `entries`.
        func position(of number: UInt64) -> Int { self.head + Int(number - self.first) }
    }

    private let state = Lock(State())

    /// Queues a write for its answer, after every earlier one; returns its number for `answer`.
    func append(_ entry: Entry) -> UInt64 {
        self.state.withLock { state in
            state.entries.append(Slot(entry: entry))
            return state.first + UInt64(state.unanswered - 1)
        }
    }

    /// Queues a write for its answer, after every earlier one, when fewer than `maximumUnanswered` are unanswered;
    /// nil (nothing queued) otherwise: the room is checked in the hold that queues the write.
    func appendIfRoom(_ entry: Entry) -> UInt64? {
        self.state.withLock { state in
            guard state.unanswered < Self.maximumUnanswered else { return nil }
            state.entries.append(Slot(entry: entry))
            return state.first + UInt64(state.unanswered - 1)
        }
    }

    /// Records the answer of write `number`, and sends (through `send`) every answer now due in order, unless
    /// another thread is sending, which then sends it.
    func answer(_ number: UInt64, _ answer: Answer, send: (Entry, Answer) -> Void) {
        var due = self.state.withLock { state -> Due? in
            state.entries[state.position(of: number)].answer = answer
            guard !state.isSending, let due = state.takeFirstAnswered() else { return nil }
            state.isSending = true
            return due
        }
        // Taken out of `due` (moved, not copied) before it is set again.
        while let sent = due.take() {
            send(sent.entry, sent.answer)
            let waiters: [CheckedContinuation<Void, Never>]
            (due, waiters) = self.state.withLock { state in
                let due = state.takeFirstAnswered()
                var waiters: [CheckedContinuation<Void, Never>] = []
                if state.unanswered < Self.maximumUnanswered, !state.roomWaiters.isEmpty {
                    swap(&waiters, &state.roomWaiters)
                }
                guard due == nil else { return (due, waiters) }
                state.isSending = false
                // Joined only when a barrier waits: an answer with nobody waiting makes no list.
                guard state.unanswered == 0, !state.waiters.isEmpty else { return (due, waiters) }
                defer { state.waiters = [] }
                return (due, waiters + state.waiters)
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    /// Returns once fewer than `maximumUnanswered` writes are unanswered.
    func waitForRoom() async {
        await withCheckedContinuation { continuation in
            let hasRoom = self.state.withLock { state -> Bool in
                let hasRoom = state.unanswered < Self.maximumUnanswered
                if !hasRoom { state.roomWaiters.append(continuation) }
                return hasRoom
            }
            if hasRoom { continuation.resume() }
        }
    }

    /// Returns once every appended write has been answered.
    func barrier() async {
        await withCheckedContinuation { continuation in
            let isIdle = self.state.withLock { state -> Bool in
                let isIdle = state.unanswered == 0 && !state.isSending
                if !isIdle { state.waiters.append(continuation) }
                return isIdle
            }
            if isIdle { continuation.resume() }
        }
    }
}
