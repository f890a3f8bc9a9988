import HearthCore
import HearthTestKit
import Testing

@testable import HearthDatabase

/// `CommitFeed.merge` puts each part's mutations into their place as it takes them; for parts that write no path
/// twice this must be exactly what flattening the parts and sorting them stably (the way it was done before) gives.
@Suite struct CommitFeedMergeDifferentialTests {
    /// The order `merge` applies mutations in, as the flatten-and-sort version compared them: shallower paths
    /// first, then the first key that differs, then a value before its priority.
    private static func applyOrder(_ a: ResolvedMutation, _ b: ResolvedMutation) -> Bool {
        let (left, right) = (a.path.keys, b.path.keys)
        if left.count != right.count { return left.count < right.count }
        for (leftKey, rightKey) in zip(left, right) where leftKey != rightKey { return leftKey < rightKey }
        if case .set = a, case .setPriority = b { return true }
        return false
    }

    /// A random path of one to four keys over a small alphabet (integer and name keys), so that paths share
    /// prefixes and depths often.
    private static func path(using random: inout SeededRandom) -> Path {
        let names = ["a", "b", "1", "10", "-2", "posts", "p1", "starCount"]
        let depth = Int.random(in: 1...4, using: &random)
        return Path(
            keys: (0..<depth).map { _ in Key(unchecked: names[Int.random(in: 0..<names.count, using: &random)]) })
    }

    /// Over random parts (one to four, each of one to five sets and priorities, at distinct paths within the whole
    /// write), the merge equals the stable sort of the flattened parts, element for element.
    @Test func mergeEqualsTheStableSortOfTheFlattenedParts() {
        var random = SeededRandom(seed: 0x3532_4C4F_4F50)
        for _ in 0..<2_000 {
            var used: Set<Path> = []
            var parts: [[ResolvedMutation]] = []
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                var part: [ResolvedMutation] = []
                for _ in 0..<Int.random(in: 1...5, using: &random) {
                    let path = Self.path(using: &random)
                    guard used.insert(path).inserted else { continue }
                    let value = Int64.random(in: 0..<100, using: &random)
                    part.append(
                        Bool.random(using: &random) ? .set(path, Node(.int(value))) : .setPriority(path, .int(value)))
                }
                parts.append(part)
            }
            let expected = parts.flatMap { $0 }.sorted(by: Self.applyOrder)
            #expect(CommitFeed.merge(parts) == expected, "parts \(parts)")
        }
    }

    /// Parts larger than the insertion limit — up to a many-member PATCH split over two shards, whose members
    /// interleave — are ordered as the stable sort orders them (flattened and sorted, not inserted one by one).
    @Test(arguments: [CommitFeed.insertionMergeLimit + 1, 200, 20_000])
    func largeWritesMergeAsTheStableSort(members: Int) {
        var random = SeededRandom(seed: UInt64(members))
        var parts: [[ResolvedMutation]] = [[], []]
        for member in 0..<members {
            let path = Path(keys: [Key(unchecked: "posts"), Key(unchecked: "p\(member)")])
            parts[Int.random(in: 0...1, using: &random)].append(.set(path, Node(.int(Int64(member)))))
        }
        let expected = parts.flatMap { $0 }.sorted(by: Self.applyOrder)
        #expect(CommitFeed.merge(parts) == expected)
    }
}
