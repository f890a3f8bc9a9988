import Glibc
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
        public var applied: Set<UInt64> {
            get { self.appliedWrites.set }
            set { self.appliedWrites = AppliedWrites(newValue) }
        }
        /// The clock when the client's latest write here was recorded.
        public var lastUsed: Int64
        /// `applied`, kept without a set while the client has at most one write above its mark (a client that
        /// settles as it goes, as every SDK-like client does, never has more): recording and asking then hash nothing.
        private var appliedWrites: AppliedWrites

        public init(settledBelow: UInt64, applied: Set<UInt64>, lastUsed: Int64) {
            self.settledBelow = settledBelow
            self.appliedWrites = AppliedWrites(applied)
            self.lastUsed = lastUsed
        }

        /// Whether the client's write `sequence` was applied here or is one it settled.
        func covers(_ sequence: UInt64) -> Bool {
            sequence < self.settledBelow || self.appliedWrites.contains(sequence)
        }

        /// Remembers one applied write of the client, at `clock`.
        mutating func record(_ origin: WriteOrigin, clock: Int64) {
            if origin.settledBelow > self.settledBelow {
                self.settledBelow = origin.settledBelow
                self.appliedWrites.removeAll(below: origin.settledBelow)
            }
            if origin.sequence >= self.settledBelow { self.appliedWrites.insert(origin.sequence) }
            if self.appliedWrites.count > WriteSessions.appliedCapacity {
                self.appliedWrites.removeOldest(self.appliedWrites.count - WriteSessions.appliedCapacity * 7 / 8)
            }
            self.lastUsed = clock
        }
    }

    /// A write applied with its origin, as an applied entry reports it (`ShardApplied.recorded`).
    public struct Record: Sendable, Equatable {
        public var origin: WriteOrigin
        public var now: Int64
    }

    /// A client id with its stable hash (`WriteOrigin.stableHash(of:)`), which a write's origin carries from where it
    /// was made: the bucket and the bucket's dictionary both go by it, so asking after a write or recording it hashes
    /// none of the id's bytes. Equal when the ids are (their hashes first).
    private struct Client: Hashable {
        let id: String
        let hash: UInt64

        /// A client id read from a snapshot: hashed here.
        init(_ id: String) {
            self.id = id
            self.hash = WriteOrigin.stableHash(of: id)
        }

        /// The client of a write's origin, with the hash the origin carries.
        init(_ origin: WriteOrigin) {
            self.id = origin.client
            self.hash = origin.clientHash
        }

        static func == (lhs: Client, rhs: Client) -> Bool {
            guard lhs.hash == rhs.hash else { return false }
            // Byte for byte, over each id's bytes in one piece with one `memcmp`: the hash already tells apart ids
            // whose bytes differ (two spellings `String` would call equal never got here), and a client id is ASCII
            // (`WriteOrigin`). `String`'s own equality went through its general comparison, and a sequence
            // comparison steps an iterator per byte: either was a shard's costliest step in asking after a write.
            let equal = lhs.id.utf8.withContiguousStorageIfAvailable { left in
                rhs.id.utf8.withContiguousStorageIfAvailable { right in
                    guard left.count == right.count else { return false }
                    // Equal counts with no storage are two empty ids.
                    guard let leftBytes = left.baseAddress, let rightBytes = right.baseAddress else { return true }
                    return memcmp(leftBytes, rightBytes, left.count) == 0
                }
            }
            if case let equal?? = equal { return equal }
            return lhs.id.utf8.elementsEqual(rhs.id.utf8)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(self.hash)
        }

        /// The bucket the client's session is kept in.
        var bucket: Int { Int(self.hash % UInt64(WriteSessions.bucketCount)) }
    }

    /// The sessions, spread over `bucketCount` dictionaries by a stable hash of the client id: a replicated shard's
    /// leader keeps a copy of its machine while it applies (to put it back should the log refuse the entry), and
    /// recording then copies only the bucket it edits, not every client's session.
    private var buckets: [[Client: Session]]
    private static let bucketCount = 64
    /// The newest `now` recorded: the clock the sessions expire by.
    public private(set) var clock: Int64

    /// Sessions as a snapshot kept them; the clock is the newest of their `lastUsed`.
    public init(sessions: [String: Session] = [:]) {
        self.buckets = Array(repeating: [:], count: Self.bucketCount)
        for (id, session) in sessions {
            let client = Client(id)
            self.buckets[client.bucket][client] = session
        }
        self.clock = sessions.values.map(\.lastUsed).max() ?? 0
    }

    /// Every client's session (for snapshots and tests: O(clients)).
    public var sessions: [String: Session] {
        self.buckets.reduce(into: [:]) { all, bucket in
            for (client, session) in bucket where all[client.id] == nil { all[client.id] = session }
        }
    }

    /// How many clients are remembered.
    public var count: Int { self.buckets.reduce(0) { $0 + $1.count } }

    /// Whether the write was applied here already, or is one its client settled (answered) before.
    public func contains(_ origin: WriteOrigin) -> Bool {
        let client = Client(origin)
        return self.buckets[client.bucket][client]?.covers(origin.sequence) ?? false
    }

    /// Remembers a write the shard applied; forgets what its settled mark, the retention and the capacity allow.
    public mutating func record(_ record: Record) {
        let before = self.clock
        let clock = max(self.clock, record.now)
        self.clock = clock
        // Edited in place: a copy of the session would copy its set of applied writes on every record.
        let client = Client(record.origin)
        let bucket = client.bucket
        // One lookup, where asking first whether the client is known costs a second hash of its id.
        let knownInBucket = self.buckets[bucket].count
        self.buckets[bucket][client, default: Session(settledBelow: 0, applied: [], lastUsed: clock)]
            .record(record.origin, clock: clock)
        let isNew = self.buckets[bucket].count != knownInBucket
        if clock / Self.sweepInterval != before / Self.sweepInterval {
            let horizon = clock - Self.retention
            for index in self.buckets.indices
            where self.buckets[index].values.contains(where: { $0.lastUsed < horizon }) {
                self.buckets[index] = self.buckets[index].filter { $0.value.lastUsed >= horizon }
            }
        }
        // Only a new client can take the count past the capacity; a known one's write costs no count.
        guard isNew else { return }
        let count = self.count
        if count > Self.capacity {
            let oldest = self.sessions.sorted { ($0.value.lastUsed, $0.key) < ($1.value.lastUsed, $1.key) }
            for (id, _) in oldest.prefix(count - Self.capacity * 7 / 8) {
                let client = Client(id)
                self.buckets[client.bucket][client] = nil
            }
        }
    }
}
