public import HearthWire

/// The writes one shard applied for each client that names its writes (`WriteOrigin`): Raft's client sessions
/// (Ongaro's thesis, §6.3), kept in the shard's replicated state so that a write sent again is answered without
/// being applied twice — after a lost answer, a node's restart, a failover to another node, or an app's restart.
///
/// A pure value that every replica (and the read view, for snapshots) evolves identically from the same entries:
/// its only clock is the `now` of the writes it records. Per client it keeps the writes applied at or above the
/// client's settled mark (the client promised never to send anything below it again, so anything below counts as
/// answered); a client silent for `retention` of that clock is forgotten, and past `capacity` clients the least
/// recently used are. A write sent again after its client was forgotten applies again, as Firebase applies it.
public struct WriteSessions: Sendable, Equatable {
    /// How long a silent client is remembered, in milliseconds of the recorded writes' clock (24 hours).
    public static let retention: Int64 = 24 * 60 * 60 * 1000
    /// How often (of that clock) silent clients are swept out, in milliseconds.
    static let sweepInterval: Int64 = 60 * 1000
    /// How many clients one shard remembers at most.
    public static let capacity = 65_536
    /// How many applied writes above its settled mark one client may have remembered at most; a client that
    /// never settles loses its oldest (they would apply again), never a write that was not applied. Past it, the
    /// oldest eighth goes at once, so a client that never settles costs one sort per 2,048 writes.
    public static let appliedCapacity = 16_384

    /// One client's writes applied here.
    public struct Session: Sendable, Equatable {
        /// Every write of the client numbered below this one is answered: none is kept.
        public var settledBelow: UInt64
        /// The client's writes numbered at or above `settledBelow` that were applied here.
        public var applied: Set<UInt64>
        /// The clock when the client's latest write here was recorded.
        public var lastUsed: Int64

        public init(settledBelow: UInt64, applied: Set<UInt64>, lastUsed: Int64) {
            self.settledBelow = settledBelow
            self.applied = applied
            self.lastUsed = lastUsed
        }
    }

    /// A write applied with its origin, as an applied entry reports it (`ShardApplied.recorded`).
    public struct Record: Sendable, Equatable {
        public var origin: WriteOrigin
        public var now: Int64
    }

    public private(set) var sessions: [String: Session]
    /// The newest `now` recorded: the clock the sessions expire by.
    public private(set) var clock: Int64

    /// Sessions as a snapshot kept them; the clock is the newest of their `lastUsed`.
    public init(sessions: [String: Session] = [:]) {
        self.sessions = sessions
        self.clock = sessions.values.map(\.lastUsed).max() ?? 0
    }

    /// Whether the write was applied here already, or is one its client settled (answered) before.
    public func contains(_ origin: WriteOrigin) -> Bool {
        guard let session = self.sessions[origin.client] else { return false }
        return origin.sequence < session.settledBelow || session.applied.contains(origin.sequence)
    }

    /// Remembers a write the shard applied; forgets what its settled mark, the retention and the capacity allow.
    public mutating func record(_ record: Record) {
        let origin = record.origin
        let before = self.clock
        self.clock = max(self.clock, record.now)
        var session =
            self.sessions[origin.client] ?? Session(settledBelow: 0, applied: [], lastUsed: self.clock)
        if origin.settledBelow > session.settledBelow {
            session.settledBelow = origin.settledBelow
            session.applied = session.applied.filter { $0 >= origin.settledBelow }
        }
        if origin.sequence >= session.settledBelow { session.applied.insert(origin.sequence) }
        if session.applied.count > Self.appliedCapacity {
            let oldest = session.applied.sorted().prefix(session.applied.count - Self.appliedCapacity * 7 / 8)
            session.applied.subtract(oldest)
        }
        session.lastUsed = self.clock
        self.sessions[origin.client] = session
        if self.clock / Self.sweepInterval != before / Self.sweepInterval {
            let horizon = self.clock - Self.retention
            self.sessions = self.sessions.filter { $0.value.lastUsed >= horizon }
        }
        if self.sessions.count > Self.capacity {
            let surplus = self.sessions.count - Self.capacity * 7 / 8
            let oldest = self.sessions.sorted { ($0.value.lastUsed, $0.key) < ($1.value.lastUsed, $1.key) }
            for (client, _) in oldest.prefix(surplus) { self.sessions[client] = nil }
        }
    }
}
