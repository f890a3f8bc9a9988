/// One node's log device in a simulation: records are appended, become durable only at `sync()`, and a crash keeps
/// the durable ones plus whatever prefix of the rest the "disk" happened to write, possibly ending in a torn record.
///
/// It models what a write-ahead log meets on real disks: unsynced writes lost or partly written on power loss (a
/// torn last record, which recovery must recognise by its checksum and cut off), and, when a test asks, a durable
/// record silently corrupted (which recovery must refuse rather than skip). Randomness comes from the caller's
/// generator, so a simulation replays from its seed.
public struct SimulatedDisk: Sendable {
    /// What recovery finds after a crash.
    public struct Recovered: Sendable, Equatable {
        /// The records, in order, up to the first damaged one.
        public var records: [[UInt8]]
        /// A partly written record followed them (recovery truncates it: it was never synced).
        public var tornTail: Bool
        /// A record that had been synced was found damaged: recovery must stop instead of going on.
        public var corruptedDurableRecord: Int?
    }

    private var records: [[UInt8]] = []
    /// How many of `records` are durable.
    public private(set) var durableCount = 0
    private var corrupted: Set<Int> = []

    public init() {}

    /// Every record appended, durable or not.
    public var count: Int { self.records.count }

    /// Appends a record (not durable until `sync()`).
    public mutating func append(_ record: [UInt8]) {
        self.records.append(record)
    }

    /// Makes every appended record durable.
    public mutating func sync() {
        self.durableCount = self.records.count
    }

    /// Drops every record up to `count` (log truncation after a snapshot); they must be durable.
    public mutating func dropFirst(_ count: Int) {
        precondition(count <= self.durableCount, "dropping \(count) records of which \(self.durableCount) are durable")
        self.records.removeFirst(count)
        self.durableCount -= count
        self.corrupted = Set(self.corrupted.compactMap { $0 >= count ? $0 - count : nil })
    }

    /// Silently damages durable record `index` (a latent sector error or a misdirected write).
    public mutating func corrupt(durableRecord index: Int) {
        precondition(index < self.durableCount, "only durable records can be corrupted")
        self.corrupted.insert(index)
    }

    /// The power fails: durable records survive, of the rest a random prefix was written, and the record after
    /// that prefix may be half written (torn). Returns what recovery reads, and leaves the disk holding it.
    public mutating func crash(using random: inout some RandomNumberGenerator) -> Recovered {
        let unsynced = self.records.count - self.durableCount
        let written = unsynced == 0 ? 0 : Int.random(in: 0...unsynced, using: &random)
        let torn = written < unsynced && Bool.random(using: &random)
        self.records.removeLast(unsynced - written)
        self.durableCount = self.records.count
        return self.read(tornTail: torn)
    }

    /// What recovery reads now, without a crash (a clean restart).
    public func recover() -> Recovered {
        self.read(tornTail: false)
    }

    private func read(tornTail: Bool) -> Recovered {
        if let first = self.corrupted.min() {
            return Recovered(records: Array(self.records.prefix(first)), tornTail: false, corruptedDurableRecord: first)
        }
        return Recovered(records: self.records, tornTail: tornTail, corruptedDurableRecord: nil)
    }
}
