/// Who waits for whom, and what is forgotten when.
extension ConditionalWriteScheduler.TargetQueue {
    /// Whether the lane is taken: a compare-and-set is running, or a retry given its turn (a `412` answered within
    /// the retry window) has not come back yet.
    func isBusy(now: ContinuousClock.Instant, settings: ConditionalWriteScheduler.Settings) -> Bool {
        let window = self.retryWindow(settings)
        func awaits(_ awaited: Awaited) -> Bool { now < awaited.since + window }
        return self.isRunning(now: now) || self.orphans.contains(where: awaits)
            || self.callers.values.contains { $0.awaited.map(awaits) == true }
    }

    /// Whether a compare-and-set holds the lane by running: one started less than `maximumHold` ago and not answered.
    /// An answer that never comes (its caller's node died or was cut off, taking the answer with it) stops holding
    /// it then, as a held request stops waiting: before, such a request held its lane for good, and every
    /// compare-and-set there waited out `maximumHold`, each of a transaction's attempts again (20 s for 10 attempts
    /// after a node was killed; issue 35, target 5).
    func isRunning(now: ContinuousClock.Instant) -> Bool {
        self.running.values.contains { now < $0.deadline }
    }

    /// How long after a `412` the caller's retry is waited for: the mean gap seen here plus four deviations, at least
    /// twice the mean, within the settings' bounds (before any retry was seen, the lower bound stands for the mean and
    /// half of it for the deviation).
    func retryWindow(_ settings: ConditionalWriteScheduler.Settings) -> Duration {
        let mean = self.retryGap ?? settings.retryWindow.lowerBound
        let deviation = self.retryGap == nil ? mean / 2 : self.retryGapDeviation
        let window = max(mean * 2, mean + deviation * 4)
        return min(max(window, settings.retryWindow.lowerBound), settings.retryWindow.upperBound)
    }

    /// The index of the oldest orphaned ticket still awaited with `etag`.
    func oldestOrphan(
        etag: String, now: ContinuousClock.Instant, _ settings: ConditionalWriteScheduler.Settings
    ) -> Int? {
        self.orphans.indices.filter { self.orphans[$0].etag == etag && now < self.orphans[$0].since + settings.memory }
            .min { self.orphans[$0].ticket < self.orphans[$1].ticket }
    }

    /// Stores `caller`, forgetting the least recently seen callers beyond `maximumCallers`.
    mutating func remember(_ caller: Caller, for connection: UInt64, settings: ConditionalWriteScheduler.Settings) {
        self.callers[connection] = caller
        guard self.callers.count > settings.maximumCallers else { return }
        let busy = Set(self.held.values.map(\.connection)).union(self.running.values.map(\.connection))
        let idle = self.callers.filter { !busy.contains($0.key) }.sorted { $0.value.lastSeen < $1.value.lastSeen }
        for (connection, _) in idle.prefix(self.callers.count - settings.maximumCallers) {
            self.callers[connection] = nil
        }
    }

    /// Forgets callers and orphans not seen for `memory`, orphans beyond `maximumCallers`, and compare-and-sets
    /// still unanswered `memory` after they stopped holding the lane.
    mutating func forgetIdle(now: ContinuousClock.Instant, settings: ConditionalWriteScheduler.Settings) {
        self.callers = self.callers.filter { now < $0.value.lastSeen + settings.memory }
        self.running = self.running.filter { now < $0.value.deadline + settings.memory }
        self.orphans = self.orphans.filter { now < $0.since + settings.memory }.suffix(settings.maximumCallers)
    }

    /// When, after `now`, `release` or `forgetIdle` next has something to do here.
    func nextDeadline(
        after now: ContinuousClock.Instant, _ settings: ConditionalWriteScheduler.Settings
    ) -> ContinuousClock.Instant? {
        let awaited = self.callers.values.compactMap(\.awaited) + self.orphans
        let holds = self.held.values.map(\.deadline) + (self.held.isEmpty ? [] : self.running.values.map(\.deadline))
        let windows = self.held.isEmpty ? [] : awaited.map { $0.since + self.retryWindow(settings) }
        let lastSeen = self.callers.values.map(\.lastSeen) + self.orphans.map(\.since)
        // A running request never answered is forgotten then, so it stops counting as running (`runningCount`).
        let forgetting = (lastSeen + self.running.values.map(\.deadline)).map { $0 + settings.memory }
        return (holds + windows + forgetting).filter { $0 > now }.min()
    }
}
