import HearthCore
import HearthWire
import Testing

@testable import HearthDatabase

/// The feed's write sessions (`CommitFeed+Sessions.swift`) are the shards' own, wherever they are read: recorded late
/// from the waiting records, or taken from the machines' offers at the end of a turn, they equal what recording every
/// named write on arrival (the feed before) and the shards' machines hold at the same position.
@Suite struct CommitFeedSessionsTests {
    /// A small deterministic generator (SplitMix64), so that a failing seed can be run again.
    private struct Generator: RandomNumberGenerator {
        var state: UInt64

        mutating func next() -> UInt64 {
            self.state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = self.state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return mixed ^ (mixed >> 31)
        }
    }

    /// The write loop's shards, a feed that records on arrival as the feed did before, and the feed under test.
    private struct Model {
        var machines: [ShardStateMachine]
        var recordsOnArrival: CommitFeed
        var feed: CommitFeed
        /// Per client, the next sequence number it names.
        var sequences: [String: UInt64] = [:]
        var now: Int64 = 1_000
        /// Turns applied by the machines and not yet received by the feeds, oldest first.
        var undelivered: [[ShardApplied]] = []

        init(shards: Int, takesOffers: Bool) {
            self.machines = (0..<shards).map { ShardStateMachine(shard: $0, spineDepth: 1) }
            let start = [UInt64](repeating: 0, count: shards)
            self.recordsOnArrival = CommitFeed(appliedIndex: start)
            self.recordsOnArrival.minimumRecordingLimit = 1
            self.recordsOnArrival.recordingLimits = Array(repeating: 1, count: shards)
            self.feed = CommitFeed(appliedIndex: start)
            self.feed.takesOffers = takesOffers
            // Small limits, so that a few hundred writes record and ask many times.
            self.feed.minimumRecordingLimit = 3
            self.feed.recordingLimits = Array(repeating: 3, count: shards)
        }

        /// One turn of named (and some anonymous) writes, each in a random shard.
        mutating func turn(using generator: inout Generator) throws {
            var entries: [ShardApplied] = []
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                let shard = Int.random(in: 0..<self.machines.count, using: &generator)
                let client = "client-\(Int.random(in: 0..<5, using: &generator))"
                let sequence = self.sequences[client, default: 1]
                self.sequences[client] = sequence + 1
                let origin =
                    Int.random(in: 0..<8, using: &generator) == 0
                    ? nil
                    : try WriteOrigin(
                        client: client, sequence: sequence,
                        settledBelow: UInt64.random(in: 0...sequence, using: &generator))
                // Now and then the clock jumps a day, so clients are swept out.
                self.now += Int.random(in: 0..<40, using: &generator) == 0 ? WriteSessions.retention : 7
                let write = ShardWrite(
                    namespace: "default",
                    mutations: [try Fixture.set("s\(shard)/k\(sequence % 4)", "\(sequence)")],
                    now: self.now, origin: origin)
                let index = self.machines[shard].lastIndex + 1
                entries.append(try self.machines[shard].apply(.write(write), at: index))
            }
            self.undelivered.append(entries)
        }

        /// The machines' sessions with their indexes, as the loop offers them at the end of a turn.
        var offer: [CommitFeed.SessionsOffer] {
            self.machines.map { CommitFeed.SessionsOffer(index: $0.lastIndex, sessions: $0.sessions) }
        }

        /// Hands the oldest `count` undelivered turns to both feeds as one batch of runs.
        mutating func deliver(_ count: Int) {
            let runs = Array(self.undelivered.prefix(count))
            self.undelivered.removeFirst(runs.count)
            var updates: [CommitFeed.Update] = []
            _ = self.recordsOnArrival.receive(runs: runs, into: &updates)
            updates.removeAll()
            _ = self.feed.receive(runs: runs, into: &updates)
        }
    }

    /// With offers taken at turn ends and delivered late, records recorded at their limit, and sessions read at
    /// random moments, the feed's sessions equal the on-arrival feed's, and the machines' once everything arrived.
    @Test(arguments: [false, true], 0..<20)
    func sessionsMatchRecordingEveryWriteOnArrival(takesOffers: Bool, seed: UInt64) throws {
        var generator = Generator(state: seed)
        var model = Model(shards: 3, takesOffers: takesOffers)
        var offersTaken = 0
        for _ in 0..<150 {
            try model.turn(using: &generator)
            // The loop offers at the end of the turn, before the turn's entries are handed on, when asked.
            if takesOffers, model.feed.asksForSessions() { model.feed.offer(model.offer) }
            if Int.random(in: 0..<3, using: &generator) == 0 {
                // Deliveries are in order and offers never lag behind them, so an offer that leaves was taken.
                let waiting = Set(model.feed.offers.keys)
                model.deliver(Int.random(in: 1...model.undelivered.count, using: &generator))
                offersTaken += waiting.subtracting(model.feed.offers.keys).count
            }
            if Int.random(in: 0..<10, using: &generator) == 0 {
                #expect(model.feed.sessions() == model.recordsOnArrival.sessions(), "seed \(seed)")
            }
        }
        model.deliver(model.undelivered.count)
        #expect(model.feed.offers.isEmpty, "seed \(seed): every offer was taken or dropped")
        #expect(model.feed.sessions() == model.recordsOnArrival.sessions(), "seed \(seed)")
        #expect(model.feed.sessions() == model.machines.map(\.sessions), "seed \(seed)")
        if takesOffers { #expect(offersTaken > 0, "seed \(seed): some shard took the machines' sessions") }
    }

    /// In a steady pipeline, where the feed receives each turn two turns after the loop made it and asks at every
    /// arrival, offers are taken: a waiting offer is neither asked again nor replaced by a later one.
    @Test func aSteadyPipelineTakesOffers() throws {
        var generator = Generator(state: 11)
        var model = Model(shards: 2, takesOffers: true)
        var asks = 0
        for _ in 0..<200 {
            try model.turn(using: &generator)
            if model.feed.asksForSessions() {
                asks += 1
                model.feed.offer(model.offer)
            }
            if model.undelivered.count > 2 { model.deliver(1) }
        }
        model.deliver(model.undelivered.count)
        #expect(asks > 20 && model.feed.offersTaken >= asks, "\(model.feed.offersTaken) offers taken of \(asks) asked")
        #expect(model.feed.sessions() == model.machines.map(\.sessions))
        #expect(model.feed.sessions() == model.recordsOnArrival.sessions())
    }

    /// An offer is taken only where the shard received exactly through its index: one the shard has passed is
    /// dropped, and one ahead waits for the run that reaches it.
    @Test func anOfferIsTakenExactlyAtItsIndex() throws {
        var generator = Generator(state: 7)
        var model = Model(shards: 1, takesOffers: true)
        try model.turn(using: &generator)
        let early = model.offer
        try model.turn(using: &generator)
        let ahead = model.offer
        model.deliver(1)
        model.feed.offer(ahead)
        #expect(model.feed.offers[0]?.index == ahead[0].index, "waits for the turn that reaches it")
        model.deliver(1)
        #expect(model.feed.offers.isEmpty)
        #expect(model.feed.unrecorded[0].isEmpty, "taken in place of the records")
        #expect(model.feed.sessionsRecorded == model.machines.map(\.sessions))
        try model.turn(using: &generator)
        model.deliver(1)
        model.feed.offer(early)
        #expect(model.feed.offers.isEmpty, "passed: dropped")
        #expect(model.feed.sessions() == model.machines.map(\.sessions))
    }
}
