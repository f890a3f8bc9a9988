/// What a leader knows about one follower's log (the paper's nextIndex/matchIndex) and how it sends to it: one
/// probe at a time until the follower's position is known, then a pipeline of appends, or a snapshot when the
/// entries the follower needs are compacted away.
struct RaftProgress: Sendable, Equatable {
    enum State: Sendable, Equatable {
        /// Position unknown: one append at a time, waiting for its answer (or the next heartbeat answer).
        case probe
        /// Position known: appends are sent optimistically, up to the inflight window.
        case replicate
        /// Needs a snapshot: asked of the shell (`pendingIndex` nil) or sent and waiting for the answer.
        case snapshot(pendingIndex: UInt64?)
    }

    /// The highest index known to be in the follower's log.
    var match: UInt64 = 0
    /// The next index to send.
    var next: UInt64
    var state = State.probe
    /// In probe state: an append is out and unanswered.
    var probeSent = false
    /// In replicate state: the last index of each append in flight, oldest first.
    var inflight: [UInt64] = []
    /// Whether the follower answered since the last quorum check.
    var recentActive = false
    /// Ticks since the follower last answered, counted up to an election timeout.
    var silentTicks = 0
    /// Ticks spent in the snapshot state, to give up on a snapshot that was lost.
    var snapshotTicks = 0

    init(next: UInt64) {
        self.next = next
    }

    func isPaused(maxInflight: Int) -> Bool {
        switch self.state {
        case .probe: self.probeSent
        case .replicate: self.inflight.count >= maxInflight
        case .snapshot: true
        }
    }

    mutating func becomeProbe() {
        if case .snapshot(let pending?) = self.state {
            self.next = max(self.match + 1, pending + 1)
        } else {
            self.next = self.match + 1
        }
        self.state = .probe
        self.probeSent = false
        self.inflight = []
    }

    mutating func becomeReplicate() {
        self.state = .replicate
        self.next = self.match + 1
        self.inflight = []
    }

    mutating func becomeSnapshot(pendingIndex: UInt64?) {
        self.state = .snapshot(pendingIndex: pendingIndex)
        self.inflight = []
        self.snapshotTicks = 0
    }

    /// Records that the follower has the log through `index`; false for a stale or duplicate answer.
    mutating func update(match index: UInt64) -> Bool {
        guard index > self.match else {
            return false
        }
        self.match = index
        self.next = max(self.next, index + 1)
        self.probeSent = false
        self.inflight.removeAll { $0 <= index }
        return true
    }

    /// Moves `next` back after the follower rejected the append after `rejected`, using its hint; false when the
    /// rejection is stale.
    mutating func decrease(rejected: UInt64, hint: UInt64) -> Bool {
        if self.state == .replicate {
            guard rejected > self.match else { return false }
            self.next = self.match + 1
            return true
        }
        guard self.next - 1 == rejected else { return false }
        self.next = max(min(rejected, hint + 1), self.match + 1)
        self.probeSent = false
        return true
    }

    /// Notes an append whose last entry is `lastIndex` was sent.
    mutating func sent(lastIndex: UInt64?) {
        switch self.state {
        case .replicate:
            guard let lastIndex else { return }
            self.next = lastIndex + 1
            self.inflight.append(lastIndex)
        case .probe:
            self.probeSent = true
        case .snapshot:
            break
        }
    }
}
