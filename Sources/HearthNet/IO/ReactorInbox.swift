import CHearthSystem
import Glibc
import HearthSystem
import Synchronization

/// The only door into the reactor thread from other threads: a locked command queue plus an eventfd that wakes
/// `epoll_wait`.
///
/// Senders append under a small lock and write the eventfd only when no wake-up is already pending, so a burst of
/// writes costs one syscall; the write happens after the lock is released, since it wakes the reactor thread, which
/// takes the same lock at once (written under the lock, the woken reactor waited on it). After the reactor has
/// stopped, commands are refused and their resources released (messages are discarded, work is told it was refused,
/// shutdown waiters are resumed).
final class ReactorInbox: Sendable {
    /// Work for the reactor thread.
    enum Command: Sendable {
        /// A message for one connection's handler, such as the application's reply to an HTTP request.
        case message(connectionID: UInt64, any ConnectionMessage)
        /// A writer queued bytes or asked to close.
        case flush(connectionID: UInt64)
        /// Several writers queued bytes in one `FlushBatch` (one event to many listeners): flushed together, by the
        /// send helpers too when there are many (`Reactor+ParallelFlush.swift`).
        case flushMany(connectionIDs: [UInt64])
        /// A connection must go to protect the node's memory (its soft limit ran out).
        case evict(connectionID: UInt64, ConnectionEviction)
        /// Clients hold more than the node's client memory budget.
        case enforceClientMemoryBudget
        /// Anything else to run on the reactor thread: a dial, starting or stopping a dialer.
        case execute(ReactorWork)
        /// Graceful shutdown, step 1: stop accepting and dialing, let each connection wind down.
        case drain
        /// Graceful shutdown, step 2: every producer has finished; close the rest once flushed or at the deadline.
        case finish(deadline: UInt64, CheckedContinuation<Void, Never>)
    }

    private struct State {
        var commands: [Command] = []
        var isWakePending = false
        var isClosed = false
        /// Why the reactor stopped, when it failed.
        var failure: IOError?
    }

    private let state = Lock(State())
    /// Wake-ups written outside the lock that have not finished; `close(failure:)` waits for them before it closes
    /// the descriptor, so a write can never land on a reused one. Raised only under the lock while open.
    private let wakesInFlight = Atomic<Int>(0)
    /// The eventfd registered with epoll; owned by the inbox and closed by `close(failure:)`.
    let eventDescriptor: Int32

    init() throws(IOError) {
        let flags = Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC)
        self.eventDescriptor = Int32(try Syscall.call("eventfd") { Int(eventfd(0, flags)) })
    }

    /// Queues `command` and wakes the reactor; refused commands are released at once.
    func send(_ command: Command) {
        self.send(contentsOf: CollectionOfOne(command))
    }

    /// Queues `commands`, in order, and wakes the reactor once for all of them (`FlushBatch`); refused commands are
    /// released at once.
    func send(contentsOf commands: some Collection<Command>) {
        guard !commands.isEmpty else { return }
        let descriptor = self.eventDescriptor
        let (isRefused, wakes): (Bool, Bool) = self.state.withLock { state in
            guard !state.isClosed else { return (true, false) }
            state.commands.append(contentsOf: commands)
            guard !state.isWakePending else { return (false, false) }
            state.isWakePending = true
            self.wakesInFlight.add(1, ordering: .relaxed)
            return (false, true)
        }
        if wakes {
            var one: UInt64 = 1
            _ = Glibc.write(descriptor, &one, MemoryLayout<UInt64>.size)
            self.wakesInFlight.subtract(1, ordering: .releasing)
        }
        if isRefused { commands.forEach(Self.release) }
    }

    /// Called by the reactor when the eventfd is readable: resets it and takes every queued command, in order.
    func takeCommands() -> [Command] {
        var counter: UInt64 = 0
        _ = Glibc.read(self.eventDescriptor, &counter, MemoryLayout<UInt64>.size)
        return self.state.withLock { state in
            state.isWakePending = false
            let commands = state.commands
            state.commands = []
            return commands
        }
    }

    /// Why the reactor stopped early, once it has stopped; `nil` while it runs or after an orderly stop.
    var failure: IOError? {
        self.state.withLock { $0.failure }
    }

    /// Refuses all further commands, releases the ones still queued, records why the reactor stopped, and closes
    /// the eventfd.
    func close(failure: IOError?) {
        let leftovers: [Command]? = self.state.withLock { state in
            guard !state.isClosed else { return nil }
            state.isClosed = true
            state.failure = failure
            let commands = state.commands
            state.commands = []
            return commands
        }
        guard let leftovers else { return }
        while self.wakesInFlight.load(ordering: .acquiring) > 0 { sched_yield() }
        Syscall.close(self.eventDescriptor)
        for command in leftovers { Self.release(command) }
    }

    /// Keeps the promises attached to a command that will never be carried out.
    static func release(_ command: Command) {
        switch command {
        case .message(_, let message): message.discard()
        case .execute(let work): work.refused()
        case .finish(_, let continuation): continuation.resume()
        case .flush, .flushMany, .drain, .evict, .enforceClientMemoryBudget: break
        }
    }
}

/// A closure for the reactor thread, and what to do instead if the reactor has already stopped.
struct ReactorWork: Sendable {
    /// Runs on the reactor thread.
    let body: @Sendable (Reactor) -> Void
    /// Runs on the sending thread when the reactor has stopped and will never run `body`.
    let refused: @Sendable () -> Void
}
