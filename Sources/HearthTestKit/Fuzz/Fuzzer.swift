/// A repeatable mutation fuzzer: input `index` of a run with `seed` is always the same bytes, made from one of the
/// target's valid inputs by a few random mutations, so any finding replays from its seed and index alone.
///
/// There is no coverage feedback: each input is the corpus entry it starts from plus 1 to 8 mutations (one in half
/// the inputs, two in a quarter, and so on, so most inputs stay close enough to valid to get deep: bit flips,
/// byte edits, splices, dictionary tokens, interesting numbers as text and as binary). Indexes below the corpus size
/// give the corpus itself, unmutated, so a broken seed input shows at once.
public struct Fuzzer: Sendable {
    /// The longest input made; mutations that grow past it are cut, so a run's memory stays bounded.
    public static let maximumInputBytes = 64 * 1024

    public let corpus: [[UInt8]]
    public let dictionary: [[UInt8]]
    public let seed: UInt64

    /// A fuzzer over `corpus` (at least one input; an empty corpus fuzzes from the empty input) with the target's
    /// `dictionary` of tokens worth inserting.
    public init(corpus: [[UInt8]], dictionary: [[UInt8]] = [], seed: UInt64) {
        self.corpus = corpus.isEmpty ? [[]] : corpus
        self.dictionary = dictionary
        self.seed = seed
    }

    /// Input number `index` of this run. O(n) in the input's length.
    public func input(_ index: Int) -> [UInt8] {
        if index >= 0, index < self.corpus.count { return self.corpus[index] }
        var random = SeededRandom(seed: self.seed ^ (UInt64(truncatingIfNeeded: index) &* 0xD6E8_FEB8_6659_FD93))
        var bytes = self.corpus[Int(random.next() % UInt64(self.corpus.count))]
        for _ in 0..<min(1 + random.next().trailingZeroBitCount, 8) {
            FuzzMutation.random(using: &random).apply(to: &bytes, fuzzer: self, using: &random)
        }
        if bytes.count > Self.maximumInputBytes { bytes.removeLast(bytes.count - Self.maximumInputBytes) }
        return bytes
    }
}
