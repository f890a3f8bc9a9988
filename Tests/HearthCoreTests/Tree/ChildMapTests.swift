import HearthCore
import Testing

@Suite struct ChildMapTests {
    typealias B = Tree

    /// A map of `count` integer keys 0, 2, 4… whose values are their own numbers, built in bulk.
    static func evenMap(count: Int) -> ChildMap {
        ChildMap(sortedUniqueElements: (0..<count).map { (B.key("\(2 * $0)"), B.leaf(.int(Int64(2 * $0)))) })
    }

    static func numbers(_ sequence: some Sequence<ChildMap.Element>) -> [Int64] {
        sequence.map { element in
            guard case .int(let value) = element.node.leafValue else { return -1 }
            return value
        }
    }

    @Test func emptyMapHasNothing() {
        let map = ChildMap()
        #expect(map.isEmpty)
        #expect(map.count == 0)
        #expect(map.first == nil)
        #expect(map.last == nil)
        #expect(map[B.key("a")] == nil)
        #expect(Array(map).isEmpty)
        #expect(Array(map.reversedElements()).isEmpty)
        #expect(Array(map.ascending(from: B.key("a"))).isEmpty)
        #expect(Array(map.descending(from: B.key("a"))).isEmpty)
        #expect(map.offset(of: B.key("a")) == 0)
        map.checkInvariants()
    }

    /// Sizes around leaf and inner-node capacity build balanced trees that iterate in order both ways.
    @Test(arguments: [0, 1, 2, 31, 32, 63, 64, 65, 128, 129, 2047, 4096, 4097, 20_000])
    func bulkBuildIsBalancedAndOrdered(count: Int) {
        let map = Self.evenMap(count: count)
        #expect(map.invariantViolation() == nil)
        #expect(map.count == count)
        let expected = (0..<count).map { Int64(2 * $0) }
        #expect(Self.numbers(map) == expected)
        #expect(Self.numbers(map.reversedElements()) == expected.reversed())
        #expect(Self.numbers(map.first.map { [$0] } ?? []) == Array(expected.prefix(1)))
        #expect(Self.numbers(map.last.map { [$0] } ?? []) == Array(expected.suffix(1)))
    }

    /// Built one child at a time, the map holds the same children as the bulk build, keeps every invariant (a short
    /// last leaf shares its neighbour's elements) and stays editable.
    @Test(arguments: [0, 1, 31, 32, 33, 47, 48, 63, 64, 65, 1025, 4097, 20_001])
    func builderMatchesTheBulkBuild(count: Int) {
        var builder = ChildMap.Builder()
        for index in 0..<count {
            builder.append(B.key("\(2 * index)"), B.leaf(.int(Int64(2 * index))))
            builder.append(B.key("\(2 * index + 1)"), Node.empty)
        }
        var map = builder.finish()
        #expect(map.invariantViolation() == nil)
        #expect(map.count == count)
        #expect(Self.numbers(map) == Self.numbers(Self.evenMap(count: count)))
        map.update(B.key("1"), with: B.leaf(.int(1)))
        map.update(B.key("0"), with: nil)
        #expect(map.invariantViolation() == nil)
        #expect(map.count == max(count, 1))
    }

    @Test func bulkBuildDropsEmptyNodes() {
        let map = ChildMap(sortedUniqueElements: [(B.key("a"), Node.empty), (B.key("b"), B.leaf(.int(1)))])
        #expect(map.count == 1)
        #expect(map[B.key("a")] == nil)
        #expect(map[B.key("b")] == B.leaf(.int(1)))
    }

    @Test func boundsAreInclusiveOrExclusive() {
        let map = Self.evenMap(count: 5000)
        #expect(Self.numbers(map.ascending(from: B.key("100")).prefix(2)) == [100, 102])
        #expect(Self.numbers(map.ascending(from: B.key("100"), inclusive: false).prefix(2)) == [102, 104])
        #expect(Self.numbers(map.ascending(from: B.key("101")).prefix(2)) == [102, 104])
        #expect(Self.numbers(map.ascending(from: B.key("101"), inclusive: false).prefix(2)) == [102, 104])
        #expect(Self.numbers(map.descending(from: B.key("100")).prefix(2)) == [100, 98])
        #expect(Self.numbers(map.descending(from: B.key("100"), inclusive: false).prefix(2)) == [98, 96])
        #expect(Self.numbers(map.descending(from: B.key("101")).prefix(2)) == [100, 98])
        #expect(Self.numbers(map.descending(from: B.key("101"), inclusive: false).prefix(2)) == [100, 98])
        #expect(Self.numbers(map.ascending(from: B.key("-1"))).count == 5000)
        #expect(Self.numbers(map.ascending(from: B.key("a"))).isEmpty)
        #expect(Self.numbers(map.descending(from: B.key("-1"))).isEmpty)
        #expect(Self.numbers(map.descending(from: B.key("a"))).count == 5000)
        #expect(Self.numbers(map.descending(from: B.key("0"), inclusive: false)).isEmpty)
        #expect(Self.numbers(map.ascending(from: B.key("9998"), inclusive: false)).isEmpty)
    }

    @Test func offsetsFollowKeyOrder() {
        let map = Self.evenMap(count: 5000)
        #expect(map.offset(of: B.key("0")) == 0)
        #expect(map.offset(of: B.key("1")) == 1)
        #expect(map.offset(of: B.key("4000")) == 2000)
        #expect(map.offset(of: B.key("z")) == 5000)
        for offset in [0, 1, 63, 64, 2500, 4999] {
            #expect(Self.numbers([map.element(atOffset: offset)]) == [Int64(2 * offset)])
        }
    }

    @Test func updatingLeavesTheOriginalUntouched() {
        let original = Self.evenMap(count: 3000)
        var changed = original.updating(B.key("1"), with: B.leaf(.int(1)))
        changed = changed.updating(B.key("0"), with: nil)
        changed = changed.updating(B.key("2"), with: .empty)
        changed = changed.updating(B.key("4"), with: B.leaf(.int(-4)))
        #expect(original.count == 3000)
        #expect(Self.numbers(original.prefix(3)) == [0, 2, 4])
        #expect(Self.numbers(changed.prefix(3)) == [1, -4, 6])
        #expect(changed.count == 2999)
        original.checkInvariants()
        changed.checkInvariants()
    }

    @Test func updateReturnsThePreviousChild() {
        var map = ChildMap()
        #expect(map.update(B.key("a"), with: B.leaf(.int(1))) == nil)
        #expect(map.update(B.key("a"), with: B.leaf(.int(2))) == B.leaf(.int(1)))
        #expect(map.update(B.key("b"), with: nil) == nil)
        #expect(map.update(B.key("a"), with: nil) == B.leaf(.int(2)))
        #expect(map.isEmpty)
    }

    /// Growing one key at a time and shrinking back to nothing keeps the tree balanced at every size.
    @Test func growingAndShrinkingKeepsInvariants() {
        var map = ChildMap()
        for number in 0..<6000 {
            map.update(B.key("\(number)"), with: B.leaf(.int(Int64(number))))
        }
        map.checkInvariants()
        #expect(map.count == 6000)
        for number in stride(from: 0, to: 6000, by: 2) {
            map.update(B.key("\(number)"), with: nil)
        }
        map.checkInvariants()
        #expect(Self.numbers(map) == Array(stride(from: 1, to: 6000, by: 2)))
        for number in stride(from: 5999, to: 0, by: -2) {
            map.update(B.key("\(number)"), with: nil)
        }
        map.checkInvariants()
        #expect(map.isEmpty)
    }

    /// Crossing the one-leaf size (32 children) in both directions, in place and by copy, keeps every earlier version
    /// intact: small maps share their element array with their copies, and the switch to a tree and back is exact.
    @Test func crossingTheSmallMapSizeKeepsEveryVersion() {
        var map = ChildMap()
        var versions: [(map: ChildMap, numbers: [Int64])] = []
        var expected: [Int64] = []
        for number in 0..<70 {
            versions.append((map, expected))
            if number.isMultiple(of: 2) {
                map.update(B.key("\(number)"), with: B.leaf(.int(Int64(number))))
            } else {
                map = map.updating(B.key("\(number)"), with: B.leaf(.int(Int64(number))))
            }
            expected.append(Int64(number))
            #expect(map.invariantViolation() == nil, "after inserting \(number)")
        }
        for number in (0..<70).reversed() {
            versions.append((map, expected))
            if number.isMultiple(of: 2) {
                map.update(B.key("\(number)"), with: nil)
            } else {
                map = map.updating(B.key("\(number)"), with: nil)
            }
            expected.removeLast()
            #expect(map.invariantViolation() == nil, "after removing \(number)")
            #expect(Self.numbers(map.reversedElements()) == expected.reversed(), "after removing \(number)")
        }
        #expect(map.isEmpty)
        for (index, version) in versions.enumerated() {
            #expect(Self.numbers(version.map) == version.numbers, "version \(index)")
            #expect(version.map.invariantViolation() == nil, "version \(index)")
        }
    }
}
