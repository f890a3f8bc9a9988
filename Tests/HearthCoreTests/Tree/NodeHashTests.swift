import HearthTestKit
import Synchronization
import Testing

@testable import HearthCore

@Suite struct NodeHashTests {
    typealias B = Tree

    static let one = "YPVfR2bXt/lcDjiQZ8pOkAd3qkQ="

    /// §3.3 leaf vectors.
    @Test(arguments: [
        (LeafValue.int(1), one),
        (.double(1), one),
        (.string("a"), "eMfSk0nU+CieTkCbO5r7cKNp7qU="),
        (.bool(true), "E5z61QM0lN/U2WsOnusszCTkR8M="),
        (.bool(false), "aSSNoqcS4oQwJ2xxH20rvpp3zP0="),
        (.int(0), "7ysMph9WPitGP7poMnMHMVPtUlI="),
        (.int(10), "+r5aI9HvKKagELki8SYKBk0q7D4="),
        (.double(1.5), "4MftviR9Z/2MQCMkjh2RNbvlLJc="),
        (.double(-2.5), "eBj7htp2uFU6m+ykmQDcicyETbY="),
        (.int(1_700_000_000_000), "vzg0cpxiAeqQeyjkTe0gblJSTn8="),
        (.string(""), "Ki0Xy0V6morg0TO3Sxi/jwugYDQ="),
        (.int(2), "WtSt2Xo3L0JtPuArzQHofPrZOuU="),
    ])
    func leafHashesMatchVectors(value: LeafValue, expected: String) {
        #expect(Node(value).hash == expected)
    }

    /// `null`, `{}` and `{"a":null}` all hash to the empty string.
    @Test func emptyNodesHashToEmptyString() {
        #expect(Node.empty.hash == "")
        #expect(Node(children: ChildMap()).hash == "")
        #expect(B.object([("a", .empty)]).hash == "")
    }

    @Test func childrenHashesMatchVectors() {
        #expect(B.object([("a", B.leaf(.int(1)))]).hash == "gIphxiFGusLh2VwSNVKSvNu90m4=")
        #expect(
            B.object([("b", B.leaf(.string("x"))), ("a", B.leaf(.bool(true)))]).hash
                == "1fykEhPLGT4yK3I4Qdp2Kq8bZ34="
        )
        #expect(B.leaf(.string("x")).hash == "OJSeRnP1mf0vTrhq7izmWGPiNx4=")
        #expect(
            B.object([("10", B.leaf(.int(1))), ("9", B.leaf(.int(1))), ("a", B.leaf(.int(1)))]).hash
                == "evCfROj4O5BuYeBWBzyApN5V/lQ="
        )
        #expect(B.object([("0", B.leaf(.int(1))), ("1", B.leaf(.int(2)))]).hash == "fOnL2UowZBFe3bI9YA5uUzua3N8=")
        let inner = B.object([("y", B.leaf(.string("z")))])
        #expect(inner.hash == "6n/0qSvXe6kNCO8GCEX/izOnshw=")
        #expect(B.object([("x", inner)]).hash == "iTY7cBvLiXf8AgtEbQEXfIFT+o8=")
    }

    @Test func priorityVectorsMatch() {
        #expect(B.leaf(.string("hi"), priority: .int(5)).hash == "uvUk1aLYMVYdNAJ6PwfsBuQv3SU=")
        #expect(B.leaf(.string("hi"), priority: .double(5)).hash == "uvUk1aLYMVYdNAJ6PwfsBuQv3SU=")
        #expect(B.object([("a", B.leaf(.int(1)))], priority: .string("p")).hash == "XmDTv07owVSgIxu8wWYeRPkdpXU=")
        let prioritised = B.leaf(.int(1), priority: .int(2))
        #expect(prioritised.hash == "FvGzv2x5RbRTIc6uhMwY3pMW2oU=")
        #expect(B.object([("a", prioritised), ("b", B.leaf(.int(1)))]).hash == "H1jeUJqNDaUp47a1kwiwwypGtcc=")
    }

    @Test func hex64IsTheExactBigEndianBitPattern() {
        func hex(_ number: Double) -> String { String(decoding: Node.hex64(number), as: UTF8.self) }
        #expect(hex(-0.0) == "8000000000000000")
        #expect(hex(1) == "3ff0000000000000")
        #expect(hex(9_007_199_254_740_991) == "433fffffffffffff")
        #expect(hex(3.9999999999999996) == "400fffffffffffff")
        #expect(hex(1e-300) == "01a56e1fc2f8f359")
    }

    @Test func hashIsCachedInTheStorage() throws {
        let node = B.object([("a", B.leaf(.double(1)))])
        let storage = try #require(node.storage)
        #expect(storage.cachedHash.load() == nil)
        let first = node.hash
        #expect(storage.cachedHash.load()?.value == first)
        #expect(node.hash == first)
        #expect(node.child(B.key("a")).storage == nil, "a leaf without a priority is boxed, with no cache")
        #expect(node.child(B.key("a")).hash == Self.one)
        #expect(B.leaf(.int(1)).storage == nil, "a small integer is held inline, with no cache")
        #expect(B.leaf(.int(1)).hash == Self.one)
    }

    /// A wide node with mixed priorities hashes like a straightforward pre-image string built after a full sort.
    @Test func wideNodeMatchesReferencePreImage() {
        var random = SeededRandom(seed: 0xBEEF)
        var members: [(String, Node)] = []
        for index in 0..<3000 {
            let priority: Priority? =
                switch Int.random(in: 0..<4, using: &random) {
                case 0: .int(Int64.random(in: -5...5, using: &random))
                case 1: .string(["p", "q", "", "10"][Int.random(in: 0..<4, using: &random)])
                case 2: .double(Double(Int.random(in: -5...5, using: &random)) / 2)
                default: nil
                }
            let name = index % 2 == 0 ? "\(index)" : "k\(index)"
            members.append((name, B.leaf(.int(Int64(index)), priority: priority)))
        }
        let node = B.object(members, priority: .int(7))
        let sorted = node.children.sorted {
            PriorityOrder.precedes($0.node.priority, $0.key, $1.node.priority, $1.key)
        }
        var preImage = "priority:number:401c000000000000:"
        for child in sorted {
            preImage += ":" + child.key.string + ":" + child.node.hash
        }
        #expect(node.hash == Base64.encode(SHA1.hash(Array(preImage.utf8))), "seed 0xBEEF")
    }

    /// Many tasks hashing one shared tree at once all see the same hash (each storage computes it once, under its lock).
    @Test func concurrentHashingAgrees() async {
        func makeTree() -> Node {
            B.object(
                (0..<2000).map { index in
                    ("k\(index)", B.object([("a", B.leaf(.int(Int64(index)))), ("b", B.leaf(.string("\(index)")))]))
                }
            )
        }
        let shared = makeTree()
        let expected = makeTree().hash
        let hashes = await withTaskGroup(of: String.self) { group in
            for _ in 0..<8 {
                group.addTask { shared.hash }
            }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(hashes == Array(repeating: expected, count: 8))
    }
}
