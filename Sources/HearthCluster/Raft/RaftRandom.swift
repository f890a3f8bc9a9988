/// The node's own seeded generator (SplitMix64) for randomized election timeouts, stored in the value so that a
/// simulation replays exactly from its seeds.
struct RaftRandom: Sendable {
    private var state: UInt64

    init(seed: UInt64) {
        self.state = seed
    }

    /// A value in `0..<bound` (bound > 0).
    mutating func next(below bound: Int) -> Int {
        self.state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = self.state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        mixed ^= mixed >> 31
        return Int(mixed % UInt64(bound))
    }
}
