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
/// (`waitForRoom`) and writes are no longer ordered as their frames arrive (`hasRoom`), so a client pipelining
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

    private struct State {
        /// Writes not yet answered to the client, in request order; the first is number `first`.
        var entries: [(entry: Entry, answer: Answer?)] = []
        var first: UInt64 = 0
        /// A thread is sending answers (and sends what arrives meanwhile before it stops).
        var isSending = false
        var waiters: [CheckedContinuation<Void, Never>] = []
        /// Waiting for fewer than `maximumUnanswered` entries (`waitForRoom`).
        var roomWaiters: [CheckedContinuation<Void, Never>] = []

        /// Takes the answers at the head of the queue, in order.
        mutating func takeAnswered() -> [(Entry, Answer)] {
            var answered: [(Entry, Answer)] = []
            for (entry, answer) in self.entries {
                guard let answer else { break }
                answered.append((entry, answer))
            }
            self.entries.removeFirst(answered.count)
            self.first += UInt64(answered.count)
            return answered
        }
    }

    private let state = Lock(State())

    /// Queues a write for its answer, after every earlier one; returns its number for `answer`.
    func append(_ entry: Entry) -> UInt64 {
        self.state.withLock { state in
            state.entries.append((entry, nil))
            return state.first + UInt64(state.entries.count - 1)
        }
    }

    /// Records the answer of write `number`, and sends (through `send`) every answer now due in order, unless
    /// another thread is sending, which then sends it.
    func answer(_ number: UInt64, _ answer: Answer, send: (Entry, Answer) -> Void) {
        var due = self.state.withLock { state -> [(Entry, Answer)] in
            state.entries[Int(number - state.first)].answer = answer
            guard !state.isSending else { return [] }
            let due = state.takeAnswered()
            state.isSending = !due.isEmpty
            return due
        }
        while !due.isEmpty {
            for (entry, answer) in due { send(entry, answer) }
            let waiters: [CheckedContinuation<Void, Never>]
            (due, waiters) = self.state.withLock { state in
                let due = state.takeAnswered()
                var waiters: [CheckedContinuation<Void, Never>] = []
                if state.entries.count < Self.maximumUnanswered {
                    swap(&waiters, &state.roomWaiters)
                }
                guard due.isEmpty else { return (due, waiters) }
                state.isSending = false
                guard state.entries.isEmpty else { return (due, waiters) }
                defer { state.waiters = [] }
                return (due, waiters + state.waiters)
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    /// Whether another write may be ordered now without waiting (fewer than `maximumUnanswered` are unanswered).
    var hasRoom: Bool {
        self.state.withLock { $0.entries.count < Self.maximumUnanswered }
    }

    /// Returns once fewer than `maximumUnanswered` writes are unanswered.
    func waitForRoom() async {
        await withCheckedContinuation { continuation in
            let hasRoom = self.state.withLock { state -> Bool in
                let hasRoom = state.entries.count < Self.maximumUnanswered
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
                let isIdle = state.entries.isEmpty && !state.isSending
                if !isIdle { state.waiters.append(continuation) }
                return isIdle
            }
            if isIdle { continuation.resume() }
        }
    }
}
