import HearthTestKit
import Testing

@testable import HearthCore

/// A copied B+tree leaf copies the entries that hold no counted reference (a small-string key and an inline node) as
/// bytes and destroys them by forgetting them (`ChildMap+EntryCopy.swift`); the others are copied and destroyed with
/// their references. Leaves mixing both kinds, copied by writes to a shared version, keep both versions whole and
/// free every value once the maps are gone.
@Suite struct ChildMapEntryCopyTests {
    typealias Watched = ChildMapNodeStorageTests.Watched

    /// Short keys (small strings) and keys past 15 bytes (heap strings), integer and name keys.
    static func key(_ index: Int) -> Key {
        switch index % 3 {
        case 0: Key(unchecked: "u\(index)")
        case 1: Key(unchecked: "a-key-longer-than-fifteen-bytes-\(index)")
        default: Key(unchecked: "\(index)")
        }
    }

    /// Inline leaves (`true`, small integers) and boxed ones (doubles, strings), by index; the boxes are watched.
    static func value(_ index: Int, _ round: Int, watching watched: inout [Watched]) -> Node {
        let node: Node
        switch index % 4 {
        case 0: node = Node(.bool(round % 2 == 0))
        case 1: node = Node(.int(Int64(index * 10 + round)))
        case 2: node = Node(.double(Double(index) + Double(round) / 8))
        default: node = Node(.string("value \(index) of round \(round), long enough for the heap"))
        }
        switch node.representation {
        case .double(let box): watched.append(.init(object: box))
        case .string(let box): watched.append(.init(object: box))
        default: break
        }
        return node
    }

    /// Each round keeps the map as it was and writes every child of the map (so every leaf is copied from the kept
    /// version), and a third are deleted at the end: every kept version still holds its own round's values, and none
    /// is left alive once all are gone.
    @Test func copiedLeavesKeepEveryVersionWhole() {
        let count = 300
        var watched: [Watched] = []
        do {
            var map = ChildMap()
            for index in 0..<count { map.update(Self.key(index), with: Self.value(index, 0, watching: &watched)) }
            var versions: [(round: Int, map: ChildMap)] = [(0, map)]
            for round in 1...4 {
                for index in 0..<count {
                    let node = Self.value(index, round, watching: &watched)
                    map.modifyChild(Self.key(index)) { $0 = node }
                }
                versions.append((round, map))
            }
            // Deleting a third of the children merges and redistributes leaves, copying entries between them.
            for index in stride(from: 0, to: count, by: 3) { map.update(Self.key(index), with: nil) }
            for (round, version) in versions {
                #expect(version.invariantViolation() == nil, "round \(round)")
                var scratch: [Watched] = []
                for index in 0..<count {
                    #expect(version[Self.key(index)] == Self.value(index, round, watching: &scratch), "round \(round)")
                }
            }
            for index in 0..<count where index % 3 != 0 {
                var scratch: [Watched] = []
                #expect(map[Self.key(index)] == Self.value(index, 4, watching: &scratch))
            }
            #expect(map.count == count - (count + 2) / 3)
        }
        #expect(watched.allSatisfy { $0.object == nil }, "values outlived every map")
    }

    /// The keys the copy takes as bytes are the small strings, and only they.
    @Test func smallStringsAreTheKeysCopiedAsBytes() {
        var heap = String()
        heap.reserveCapacity(64)
        heap.append("u123")
        #expect(Key.isSmall(Key(unchecked: "u123")))
        #expect(Key.isSmall(Key(unchecked: String(decoding: Array("r1a2b3c4d-p19".utf8), as: UTF8.self))))
        #expect(!Key.isSmall(Key(unchecked: "a-key-longer-than-fifteen-bytes")))
        #expect(!Key.isSmall(Key(unchecked: heap)))
        #expect(Key(unchecked: heap) == Key(unchecked: "u123"))
    }
}
