import HearthSystem

/// What one event loop's listeners heard: when each listener got each write's event, how many are subscribed, and
/// why any failed. Written on the loop's thread, read by the run; one per loop, so its lock is hardly ever contended.
final class FanoutArrivals: Sendable {
    struct State {
        /// Arrival times (`MonotonicClock`) by listener slot and write number; 0 while not arrived.
        var times: [UInt64]
        /// Events heard, duplicates and unknown write numbers included.
        var events = 0
        /// Events for a write number the run does not have, or a second time for one listener.
        var unexpected = 0
        var ready = 0
        /// Listeners that have every write's event.
        var complete = 0
        var failures: [String] = []
    }

    let writes: Int
    let state: Lock<State>

    init(listeners: Int, writes: Int) {
        self.writes = writes
        self.state = Lock(State(times: Array(repeating: 0, count: listeners * writes)))
    }

    /// Listener `slot` heard `write`'s event at `time`; `heard` is how many distinct writes it has heard since.
    func arrived(slot: Int, write: Int, at time: UInt64, heard: Int) {
        self.state.withLock { state in
            state.events += 1
            guard write < self.writes, state.times[slot * self.writes + write] == 0 else {
                state.unexpected += 1
                return
            }
            state.times[slot * self.writes + write] = time
            if heard == self.writes { state.complete += 1 }
        }
    }

    func subscribed() { self.state.withLock { $0.ready += 1 } }

    func failed(_ reason: String) { self.state.withLock { $0.failures.append(reason) } }
}
