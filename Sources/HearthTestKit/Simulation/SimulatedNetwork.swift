/// An in-memory network between simulated nodes, driven by a seed: every message gets a delivery time, and faults
/// (loss, duplication, delay that reorders, partitions) come from the network's own seeded generator, so a run
/// replays exactly from its seed.
///
/// The network keeps simulated time in milliseconds but never advances it by itself: the simulation asks for the
/// next message due (`deliverNext(notAfter:)`) and moves its clock to that message's time. A partition is checked
/// both when a message is sent and when it is delivered, so healing never lets through what was cut, and cutting a
/// link also drops what is already on the wire.
public struct SimulatedNetwork<Node: Hashable & Comparable & Sendable, Message: Sendable>: Sendable {
    /// The network's fault rates.
    public struct Faults: Sendable {
        /// Probability that a message is lost.
        public var dropRate: Double
        /// Probability that a delivered message arrives a second time (with its own delay).
        public var duplicateRate: Double
        /// Each delivery is delayed uniformly in this range of milliseconds; overlapping delays reorder.
        public var delay: ClosedRange<UInt64>

        public init(dropRate: Double = 0, duplicateRate: Double = 0, delay: ClosedRange<UInt64> = 1...1) {
            self.dropRate = dropRate
            self.duplicateRate = duplicateRate
            self.delay = delay
        }

        /// A network that delivers everything once, after one millisecond, in order.
        public static var none: Faults { Faults() }
    }

    /// A message on the wire.
    public struct Envelope: Sendable {
        public var from: Node
        public var to: Node
        public var message: Message
        /// Simulated milliseconds when it arrives.
        public var deliverAt: UInt64
    }

    public var faults: Faults
    private var random: SeededRandom
    private var queue = SimulationQueue<Envelope>()
    /// Directed links that lose everything: (from, to).
    private var cut: Set<Link> = []
    /// Counts of what the network did, for reports and for checking that faults really happened.
    public private(set) var statistics = Statistics()

    /// What the network did so far.
    public struct Statistics: Sendable, Equatable {
        public var sent = 0
        public var delivered = 0
        public var dropped = 0
        public var duplicated = 0
        public var cut = 0
    }

    private struct Link: Hashable, Sendable {
        var from: Node
        var to: Node
    }

    public init(seed: UInt64, faults: Faults = .none) {
        self.random = SeededRandom(seed: seed)
        self.faults = faults
    }

    /// Messages sent and not yet delivered or dropped.
    public var inFlight: Int { self.queue.count }

    /// Puts `message` on the wire at simulated time `now`; it may be lost, duplicated or delayed.
    public mutating func send(_ message: Message, from: Node, to: Node, now: UInt64) {
        self.statistics.sent += 1
        guard !self.cut.contains(Link(from: from, to: to)) else {
            self.statistics.cut += 1
            return
        }
        guard !self.happens(self.faults.dropRate) else {
            self.statistics.dropped += 1
            return
        }
        self.enqueue(message, from: from, to: to, now: now)
        if self.happens(self.faults.duplicateRate) {
            self.statistics.duplicated += 1
            self.enqueue(message, from: from, to: to, now: now)
        }
    }

    /// Removes and returns the earliest message due at or before `time` whose link is not cut (messages on a cut
    /// link are dropped as they come due). Ties go to the message sent first.
    public mutating func deliverNext(notAfter time: UInt64) -> Envelope? {
        while let next = self.queue.first, next.deliverAt <= time {
            let envelope = self.queue.removeFirst()
            if self.cut.contains(Link(from: envelope.from, to: envelope.to)) {
                self.statistics.cut += 1
                continue
            }
            self.statistics.delivered += 1
            return envelope
        }
        return nil
    }

    /// The delivery time of the earliest message on the wire.
    public var nextDeliveryTime: UInt64? { self.queue.first?.deliverAt }

    /// Cuts both directions between every node of `side` and every node of `other`.
    public mutating func partition(_ side: some Sequence<Node>, from other: some Sequence<Node>) {
        let others = Array(other)
        for a in side {
            for b in others where a != b {
                self.cut.insert(Link(from: a, to: b))
                self.cut.insert(Link(from: b, to: a))
            }
        }
    }

    /// Cuts one direction only: `from` can no longer reach `to`, while `to` still reaches `from`.
    public mutating func cutLink(from: Node, to: Node) {
        self.cut.insert(Link(from: from, to: to))
    }

    /// Whether messages from `from` to `to` are currently lost.
    public func isCut(from: Node, to: Node) -> Bool {
        self.cut.contains(Link(from: from, to: to))
    }

    /// Restores every link (messages already dropped stay lost).
    public mutating func heal() {
        self.cut.removeAll()
    }

    /// Drops every message on the wire to or from `node` (it crashed: its sockets are gone).
    /// Drops every message on its way to `node` (it crashed; what it sent is already on the wire).
    public mutating func dropAll(to node: Node) {
        let before = self.queue.count
        self.queue.removeAll { $0.to == node }
        self.statistics.dropped += before - self.queue.count
    }

    public mutating func dropAll(involving node: Node) {
        let before = self.queue.count
        self.queue.removeAll { $0.from == node || $0.to == node }
        self.statistics.dropped += before - self.queue.count
    }

    private mutating func enqueue(_ message: Message, from: Node, to: Node, now: UInt64) {
        let delay = UInt64.random(in: self.faults.delay, using: &self.random)
        self.queue.insert(Envelope(from: from, to: to, message: message, deliverAt: now + delay), at: now + delay)
    }

    private mutating func happens(_ probability: Double) -> Bool {
        probability > 0 && Double.random(in: 0..<1, using: &self.random) < probability
    }
}
