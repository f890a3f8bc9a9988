import Testing

@testable import HearthCore

/// A small map keeps the array it is built in, so the builder must not reserve a whole B+tree leaf for it: a record
/// of six fields once cost a kilobyte of spare capacity (most of a 1 GB data set's memory).
@Suite struct ChildMapBuilderMemoryTests {
    private static func elementCapacity(_ map: ChildMap) -> Int? {
        if case .elements(let elements) = map.storage { return elements.capacity }
        return nil
    }

    @Test(arguments: [1, 2, 6, 17, 32]) func aBulkBuiltSmallMapHoldsAboutItsChildren(count: Int) throws {
        let elements = (0..<count).map { (key: Key(unchecked: "k\(1000 + $0)"), node: Node(.int(Int64($0)))) }
        let capacity = try #require(Self.elementCapacity(ChildMap(sortedUniqueElements: elements)))
        #expect(capacity < 2 * count + 4, "capacity \(capacity) for \(count) children")
    }

    @Test func aBuilderToldTheCountReservesExactly() throws {
        var builder = ChildMap.Builder(expectedCount: 6)
        for index in 0..<6 { builder.append(Key(unchecked: "k\(index)"), Node(.bool(true))) }
        let capacity = try #require(Self.elementCapacity(builder.finish()))
        #expect(capacity < 12)
    }

    /// A child as a map stores it (`ChildMap.Entry`) costs what the public tuple would: 24 bytes, a key and a node.
    @Test func aStoredChildIsTheSizeOfTheTuple() {
        #expect(MemoryLayout<ChildMap.Entry>.stride == MemoryLayout<ChildMap.Element>.stride)
        #expect(MemoryLayout<ChildMap.Entry>.stride == 24)
    }
}
