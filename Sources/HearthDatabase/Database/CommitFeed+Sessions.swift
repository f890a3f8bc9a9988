/// How the feed keeps the shards' write sessions (`WriteSessions`), which a snapshot cut from the view carries and
/// `DatabaseView.hasApplied` reads, without recording every named write a second time on a single node.
///
/// An arriving entry's record is appended to its shard's `unrecorded` list, where recording it hashed the client id
/// twice, looked its session up and edited the session's set of writes (a sixth of the commit thread's time on a
/// star). The list is recorded only when the sessions are read (`sessions()`: a snapshot, a stale named write) or
/// when it reaches the shard's recording limit. On a single node the write loop's shard machines already hold these
/// very sessions, since every replica and the view evolve them identically from the same entries: once a shard's
/// list is long (`asksForSessions()`), the view asks the loop, which at the end of a turn offers each machine's
/// sessions with the index the machine stands at (`offer(_:)`, a copy-on-write copy), and the feed takes them in
/// place of its own, dropping the list, once it has received that shard exactly through that index (a run the feed
/// receives is one turn of the loop, so it gets there where a run ends). What a snapshot carries is the same value
/// at the same position as before.
extension CommitFeed {
    /// One shard's sessions as its machine held them after its entry `index`.
    struct SessionsOffer: Sendable {
        var index: UInt64
        var sessions: WriteSessions
    }

    /// A shard's records wait up to this many before they are recorded, when nothing offers sessions (and at least
    /// this many before sessions are asked for): the default of `minimumRecordingLimit`.
    static let recordingLimit = 4096
    /// With a source of sessions, a shard's records are recorded here only past this many times its limit (the
    /// source has not answered yet).
    static let offeredRecordingFactor = 4

    /// Every shard's sessions through the entries it received, after recording what waits.
    mutating func sessions() -> [WriteSessions] {
        for shard in self.unrecorded.indices { self.record(shard: shard) }
        return self.sessionsRecorded
    }

    /// `shard`'s sessions through the entries it received, after recording what waits.
    mutating func sessions(of shard: Int) -> WriteSessions {
        self.record(shard: shard)
        return self.sessionsRecorded[shard]
    }

    /// Keeps an arriving entry's record of a named write; records the shard's list once it is at its limit.
    mutating func keep(_ recorded: WriteSessions.Record, shard: Int) {
        self.unrecorded[shard].append(recorded)
        let limit = self.recordingLimits[shard]
        if self.unrecorded[shard].count >= (self.takesOffers ? limit * Self.offeredRecordingFactor : limit) {
            self.record(shard: shard)
        }
    }

    /// Whether to ask the source for its sessions now: some shard's list reached its limit, nothing was asked since
    /// the last offer, and no offer waits for its shard to get there. Marks them asked.
    ///
    /// A waiting offer is let be: the view runs a turn or two behind the loop (group commit), so a shard's list is
    /// still long when the next run arrives, and asking again then would bring an offer for a later turn each time,
    /// never one the feed reaches.
    mutating func asksForSessions() -> Bool {
        guard self.takesOffers, !self.asked, self.offers.isEmpty else { return false }
        if self.unrecorded.indices.contains(where: { self.unrecorded[$0].count >= self.recordingLimits[$0] }) {
            self.asked = true
            return true
        }
        return false
    }

    /// Takes the source's sessions, one per shard with the index its machine stood at, taken at one moment: each in
    /// place of the feed's own as soon as the shard received exactly through that index (at once when it has; an
    /// offer it has already passed is dropped, and one for a shard that already has an offer waiting is not kept:
    /// the waiting one is nearer).
    mutating func offer(_ offered: [SessionsOffer]) {
        self.asked = false
        for (shard, offer) in offered.enumerated() where shard < self.received.count && self.offers[shard] == nil {
            if offer.index >= self.received[shard] { self.offers[shard] = offer }
        }
        self.takeOffers()
    }

    /// Takes every offer whose shard received exactly through its index, and drops those it has passed.
    mutating func takeOffers() {
        for (shard, offer) in self.offers where offer.index <= self.received[shard] {
            self.offers[shard] = nil
            if offer.index == self.received[shard] {
                self.replaceSessions(of: shard, with: offer.sessions)
                self.offersTaken += 1
            }
        }
    }

    /// Puts `sessions`, which hold every entry `shard` received, in place of the shard's own (a snapshot, an offer).
    mutating func replaceSessions(of shard: Int, with sessions: WriteSessions) {
        self.sessionsRecorded[shard] = sessions
        self.unrecorded[shard].removeAll(keepingCapacity: true)
        self.offers[shard] = nil
        self.setLimit(shard: shard)
    }

    /// Records `shard`'s waiting records.
    private mutating func record(shard: Int) {
        guard !self.unrecorded[shard].isEmpty else { return }
        for recorded in self.unrecorded[shard] { self.sessionsRecorded[shard].record(recorded) }
        self.unrecorded[shard].removeAll(keepingCapacity: true)
        self.setLimit(shard: shard)
    }

    /// Sets `shard`'s limit from how many clients it remembers: an offer copies the machine's sessions, and the
    /// machine's next record of each client copies that client's share of them, so the records that wait are at
    /// least twice the clients, and that copy costs less than recording them would.
    private mutating func setLimit(shard: Int) {
        self.recordingLimits[shard] = max(self.minimumRecordingLimit, 2 * self.sessionsRecorded[shard].count)
    }
}
