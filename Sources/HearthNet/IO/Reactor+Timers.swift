import HearthSystem

/// Deadlines on the reactor thread: one per connection (the handler's timer, a connect timeout, or the close bound),
/// the listener's accept back-off, and one-off work scheduled by dialers, all in one `TimerHeap`.
extension Reactor {
    func setDeadline(_ connection: Connection, _ purpose: Connection.TimerPurpose, after delay: UInt64) {
        let deadline = MonotonicClock.now() &+ delay
        connection.deadline = deadline
        connection.timerPurpose = purpose
        if let queued = connection.queuedTimer, queued <= deadline { return }
        connection.queuedTimer = deadline
        self.timers.push(TimerHeap.Entry(deadline: deadline, key: connection.id))
    }

    /// Runs `body` on the reactor thread after `delay` nanoseconds, unless `cancelScheduled` gets there first.
    /// Scheduled work does not keep a finishing reactor alive.
    func schedule(after delay: UInt64, _ body: @escaping () -> Void) -> UInt64 {
        let key = self.makeID()
        self.scheduled[key] = body
        self.timers.push(TimerHeap.Entry(deadline: MonotonicClock.now() &+ delay, key: key))
        return key
    }

    func cancelScheduled(_ key: UInt64) {
        self.scheduled[key] = nil
    }

    func waitTimeout(now: UInt64) -> Int32 {
        var earliest = self.timers.first?.deadline
        if let finishRequest { earliest = min(earliest ?? finishRequest.deadline, finishRequest.deadline) }
        guard let earliest else { return -1 }
        guard earliest > now else { return 0 }
        let milliseconds = (earliest - now + 999_999) / 1_000_000
        return Int32(min(milliseconds, 60_000))
    }

    func fireTimers(now: UInt64) {
        while let entry = self.timers.first, entry.deadline <= now {
            _ = self.timers.popFirst()
            if entry.key == Self.listenerToken {
                self.listenerRetryTimerFired(deadline: entry.deadline)
                continue
            }
            if let work = self.scheduled.removeValue(forKey: entry.key) {
                work()
                continue
            }
            guard let connection = self.connections[entry.key], connection.queuedTimer == entry.deadline else {
                continue
            }
            connection.queuedTimer = nil
            guard let deadline = connection.deadline else { continue }
            if deadline > now {
                connection.queuedTimer = deadline
                self.timers.push(TimerHeap.Entry(deadline: deadline, key: connection.id))
                continue
            }
            connection.deadline = nil
            self.expire(connection)
        }
    }

    private func expire(_ connection: Connection) {
        switch connection.timerPurpose {
        case .handler:
            guard connection.state == .active else { return }
            connection.handler?.timerFired(connection)
        case .connect(let timeout):
            self.close(connection, error: Socket.connectTimeout(to: connection.remoteAddress, after: timeout))
        case .close:
            self.close(connection)
        }
    }
}
