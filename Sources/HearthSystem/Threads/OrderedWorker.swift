/// A dedicated thread that handles items in the order they were sent: for a thread that must hand work on without
/// waiting for it. The write-ahead log's writer gives it committed batches, so the read view's update and the
/// fan-out to listeners run beside the next write and fsync instead of between them.
///
/// The handler gets every item sent since it last ran, together and in order: one that can do one step for many
/// (the read view publishes several batches in one fan-out, each connection's share in one send) takes bigger steps
/// the further it falls behind, as an event loop writes each client's whole buffer once per turn.
///
/// `send` never blocks on the handler. `finish()` returns once every item sent before it has been handled and the
/// thread has ended; items sent after that are dropped.
public final class OrderedWorker<Item: Sendable>: Sendable {
    private struct State {
        var items: [Item] = []
        var isFinishing = false
        var isDone = false
        var finishers: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Lock(State())
    private let wake = WakeSignal()

    /// Starts the thread, called `name`, which hands the items to `handle`: never an empty array, and every item once,
    /// in the order sent. The thread keeps the worker until `finish()`.
    /// - Throws: `SystemError` when the system refuses another thread.
    public init(name: String, handle: @escaping @Sendable ([Item]) -> Void) throws(SystemError) {
        let thread = try DedicatedThread.start(name: name) { self.run(handle: handle) }
        thread.detach()
    }

    /// Queues `item` for the thread; dropped once `finish()` has been called. The item is moved in, so the
    /// thread that handles it holds the last reference to what it carries and frees it, rather than whichever of the
    /// two threads let go last.
    public func send(_ item: consuming Item) {
        var item = Optional(item)
        let isAccepted = self.state.withLock { state in
            guard !state.isFinishing, let sent = item.take() else { return false }
            state.items.append(sent)
            return true
        }
        if isAccepted { self.wake.signal() }
    }

    /// Queues `items`, in order, with one lock and one wake-up for all of them; dropped once `finish()` has been
    /// called. Sending none does nothing. Moved in, as `send(_:)`'s item is: the array itself when nothing is queued.
    public func send(contentsOf items: consuming [Item]) {
        guard !items.isEmpty else { return }
        var items = items
        let isAccepted = self.state.withLock { state in
            guard !state.isFinishing else { return false }
            if state.items.isEmpty {
                swap(&state.items, &items)
            } else {
                state.items.append(contentsOf: items)
                items.removeAll()
            }
            return true
        }
        if isAccepted { self.wake.signal() }
    }

    /// Items sent and not yet taken by the thread.
    public var backlog: Int { self.state.withLock { $0.items.count } }

    /// Ends the thread once what is queued is handled, without waiting for it.
    public func stop() {
        self.state.withLock { $0.isFinishing = true }
        self.wake.signal()
    }

    /// Handles what is queued, then ends the thread; returns once it has.
    public func finish() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isDone = self.state.withLock { state in
                state.isFinishing = true
                if !state.isDone { state.finishers.append(continuation) }
                return state.isDone
            }
            if isDone { continuation.resume() } else { self.wake.signal() }
        }
    }

    private func run(handle: ([Item]) -> Void) {
        while true {
            let (items, isFinishing) = self.state.withLock { state in
                let items = state.items
                state.items = []
                return (items, state.isFinishing)
            }
            guard items.isEmpty else {
                handle(items)
                continue
            }
            if isFinishing { break }
            self.wake.wait()
        }
        let finishers = self.state.withLock { state in
            state.isDone = true
            defer { state.finishers = [] }
            return state.finishers
        }
        for finisher in finishers { finisher.resume() }
    }
}
