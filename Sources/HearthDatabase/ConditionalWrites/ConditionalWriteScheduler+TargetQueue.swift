extension ConditionalWriteScheduler {
    /// One location's lane: its callers, tickets and compare-and-sets.
    ///
    /// A ticket is a number handed out at a caller's first `412` here, kept until it commits; a lower number has
    /// waited longer. A request's rank is its caller's ticket, or `UInt64.max` for a caller without one.
    struct TargetQueue {
        /// A retry the lane waits for: a `412` carrying `etag` was answered at `since`.
        struct Awaited {
            var ticket: UInt64
            var etag: String
            var since: ContinuousClock.Instant
        }

        /// What is known of one connection here.
        struct Caller {
            var ticket: UInt64?
            /// Set from its `412` until its next request.
            var awaited: Awaited?
            /// Its last request here was an ETag read, so its next compare-and-set starts a transaction.
            var justRead = false
            var lastSeen: ContinuousClock.Instant
        }

        /// A compare-and-set, held or running.
        struct Request {
            var connection: UInt64
            var rank: UInt64
            var etag: String
            /// Held: when it runs whatever the lane does. Running: when it stops holding the lane unanswered.
            var deadline: ContinuousClock.Instant
            /// It came without a ticket on a connection that did not just read: perhaps a retry on another
            /// connection, which takes the ticket orphaned by the next ETag read.
            var mayAdopt: Bool
        }

        /// The group (a shard) whose running count the location's compare-and-sets add to, if any.
        let group: Int?
        var callers: [UInt64: Caller] = [:]
        /// Retries awaited whose connection was taken for something else: their caller comes back on another one.
        var orphans: [Awaited] = []
        var held: [UInt64: Request] = [:]
        var running: [UInt64: Request] = [:]
        /// The running mean of how long callers took to retry after a `412`, and of its deviation from the mean,
        /// which set the retry window.
        var retryGap: Duration?
        var retryGapDeviation = Duration.zero
        /// The location's shard is being handed to another leader: nothing starts here (but at `maximumHold`) until
        /// the handover ends, so the running compare-and-sets finish before it and none meets it halfway.
        var isPaused = false

        var isEmpty: Bool {
            self.callers.isEmpty && self.orphans.isEmpty && self.held.isEmpty && self.running.isEmpty
        }

        /// Returns whether request `id` must wait: a retry given its turn runs unless another request is running;
        /// anything else runs only when the lane is free.
        mutating func arrive(
            _ id: UInt64, connection: UInt64, etag: String, now: ContinuousClock.Instant, settings: Settings
        ) -> Bool {
            let window = self.retryWindow(settings)
            var caller = self.callers[connection] ?? Caller(lastSeen: now)
            var isRetry = false
            if let awaited = caller.awaited {
                self.observeRetry(after: now - awaited.since)
                isRetry = now < awaited.since + window
            } else if caller.ticket == nil, !caller.justRead,
                let orphan = self.oldestOrphan(etag: etag, now: now, settings)
            {
                let adopted = self.orphans.remove(at: orphan)
                caller.ticket = adopted.ticket
                isRetry = now < adopted.since + window
            }
            let mayAdopt = caller.ticket == nil && !caller.justRead
            caller.awaited = nil
            caller.justRead = false
            caller.lastSeen = now
            self.remember(caller, for: connection, settings: settings)
            let request = Request(
                connection: connection, rank: caller.ticket ?? .max, etag: etag, deadline: now + settings.maximumHold,
                mayAdopt: mayAdopt)
            let runs =
                !self.isPaused
                && (isRetry
                    ? !self.isRunning(now: now) : self.held.isEmpty && !self.isBusy(now: now, settings: settings))
            if runs {
                self.running[id] = request
            } else {
                self.held[id] = request
            }
            return !runs
        }

        /// An ETag read on `connection`: a retry awaited from it comes on another connection (or already came).
        mutating func read(connection: UInt64, now: ContinuousClock.Instant, settings: Settings) {
            var caller = self.callers[connection] ?? Caller(lastSeen: now)
            if let awaited = caller.awaited, !self.adopt(awaited, into: \.held), !self.adopt(awaited, into: \.running) {
                self.orphans.append(awaited)
            }
            caller.ticket = nil
            caller.awaited = nil
            caller.justRead = true
            caller.lastSeen = now
            self.remember(caller, for: connection, settings: settings)
        }

        /// Request `id` was answered; a `412` gives its caller `newTicket` unless it has one.
        mutating func answered(_ id: UInt64, _ answer: Answer, newTicket: UInt64, now: ContinuousClock.Instant) {
            guard let request = self.running.removeValue(forKey: id) ?? self.held.removeValue(forKey: id) else {
                return
            }
            var caller = self.callers[request.connection] ?? Caller(lastSeen: now)
            caller.lastSeen = now
            switch answer {
            case .committed:
                caller.ticket = nil
            case .conditionFailed(let etag):
                let ticket = caller.ticket ?? newTicket
                caller.ticket = ticket
                caller.awaited = Awaited(ticket: ticket, etag: etag, since: now)
            case .failed:
                break
            }
            // A caller with no ticket that did not just read is no different from one never seen.
            self.callers[request.connection] = caller.ticket == nil && !caller.justRead ? nil : caller
        }

        /// Moves the held requests that may run now to `running` and returns them: those held too long, and, when
        /// the lane is free and not paused, the one with the oldest ticket.
        mutating func release(now: ContinuousClock.Instant, settings: Settings) -> [UInt64] {
            var released: [UInt64] = []
            for (id, request) in self.held where request.deadline <= now {
                self.held[id] = nil
                self.running[id] = Self.started(request, now: now, settings: settings)
                released.append(id)
            }
            if !self.isPaused, !self.isBusy(now: now, settings: settings),
                let (id, request) = self.held.min(by: { ($0.value.rank, $0.key) < ($1.value.rank, $1.key) })
            {
                self.held[id] = nil
                self.running[id] = Self.started(request, now: now, settings: settings)
                released.append(id)
            }
            return released
        }

        /// Forgets `connection`; a retry awaited from it will come on another connection. Its compare-and-sets no
        /// longer hold or wait for the lane (a remote caller's node that went away never answers them): the running
        /// ones are dropped, the held ones are returned, to be let go without taking the lane.
        mutating func forget(_ connection: UInt64) -> [UInt64] {
            if let awaited = self.callers.removeValue(forKey: connection)?.awaited { self.orphans.append(awaited) }
            self.running = self.running.filter { $0.value.connection != connection }
            let held = self.held.filter { $0.value.connection == connection }.map(\.key)
            for id in held { self.held[id] = nil }
            return held
        }

        /// `request` as it starts running at `now`: it holds the lane until answered, or for `maximumHold`.
        static func started(_ request: Request, now: ContinuousClock.Instant, settings: Settings) -> Request {
            var running = request
            running.deadline = now + settings.maximumHold
            return running
        }

        /// Gives `orphan`'s ticket to the oldest request in `requests` that may adopt one, expecting its ETag.
        private mutating func adopt(_ orphan: Awaited, into requests: WritableKeyPath<Self, [UInt64: Request]>) -> Bool
        {
            let candidates = self[keyPath: requests].filter { $0.value.mayAdopt && $0.value.etag == orphan.etag }
            guard let id = candidates.keys.min(), var request = self[keyPath: requests][id] else { return false }
            request.rank = orphan.ticket
            request.mayAdopt = false
            self[keyPath: requests][id] = request
            self.callers[request.connection, default: Caller(lastSeen: orphan.since)].ticket = orphan.ticket
            return true
        }

        /// Folds one observed retry gap into the running mean and deviation (as TCP estimates round trips).
        private mutating func observeRetry(after gap: Duration) {
            guard let mean = self.retryGap else {
                self.retryGap = gap
                self.retryGapDeviation = gap / 2
                return
            }
            let deviation = gap > mean ? gap - mean : mean - gap
            self.retryGapDeviation += (deviation - self.retryGapDeviation) / 4
            self.retryGap = mean + (gap - mean) / 8
        }
    }
}
