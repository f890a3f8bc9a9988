import HearthCore
import HearthTestKit
import Testing

/// `Node.apply(_:incrementing:)` resolves a write's bare increments where its one descent writes them; it must give
/// exactly what resolving each against the tree before the write and then applying the edits in order gives (values,
/// priorities, hashes, and the resolved edits it hands back), over random trees and writes, and leave every version
/// sharing nodes with the edited tree as it was.
@Suite struct NodeIncrementEditsTests {
    typealias Edits = NodeEditsTests
    typealias B = Tree

    /// Deltas of both kinds, and numbers whose sums change kind: two integers past `Int64`'s range add as doubles.
    static let deltas: [LeafValue] = [.int(1), .int(-1), .int(7), .double(0.5), .double(-2.25), .int(Int64.max)]
    /// What increments land on besides the random leaves: integers near the end of `Int64`, a large double.
    static let numbers: [LeafValue] = [.int(Int64.max - 1), .int(Int64.min + 1), .double(1e200), .int(40)]

    /// A write of random edits (`NodeEditsTests.randomEdits`) with bare increments among them, each a set of its
    /// delta at its position in `increments`; sometimes at or below another edit, or two at one path.
    static func randomWrite(_ random: inout SeededRandom) -> (edits: [TreeEdit], increments: TreeEdit.Increments) {
        var edits = Edits.randomEdits(&random)
        var increments = TreeEdit.Increments()
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let path =
                Int.random(in: 0..<6, using: &random) == 0 && !edits.isEmpty
                ? edits[Int.random(in: 0..<edits.count, using: &random)].path : Edits.randomPath(&random)
            let overlaps = edits.contains { $0.path.contains(path) || path.contains($0.path) }
            if overlaps, Int.random(in: 0..<4, using: &random) != 0 { continue }
            increments.insert(edits.count)
            edits.append(.set(path, Node(Self.deltas[Int.random(in: 0..<Self.deltas.count, using: &random)])))
        }
        return (edits, increments)
    }

    /// The edits with every increment resolved against `tree` as it is before them.
    static func resolved(_ edits: [TreeEdit], _ increments: TreeEdit.Increments, against tree: Node) -> [TreeEdit] {
        edits.indices.map { position in
            guard increments.contains(position), case .set(let path, let node) = edits[position],
                let delta = node.leafValue
            else { return edits[position] }
            let current = tree.node(at: path).leafValue
            return .set(path, Node(ServerValue.increment(delta).resolved(current: current, now: 0)))
        }
    }

    /// Random writes with increments give the same tree and resolved edits both ways, sometimes on shared trees.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func incrementsResolvedInTheDescentMatchResolvedFirst(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var descended = Node.empty
        var ordered = Node.empty
        var kept: [(node: Node, hash: String)] = []
        for step in 0..<400 {
            var (edits, increments) = Self.randomWrite(&random)
            if Int.random(in: 0..<4, using: &random) == 0 { kept.append((descended, descended.hash)) }
            let expected = Self.resolved(edits, increments, against: ordered)
            for edit in expected { edit.apply(to: &ordered) }
            descended.apply(&edits, incrementing: increments)
            #expect(edits == expected, "seed \(seed) step \(step)")
            #expect(descended == ordered, "seed \(seed) step \(step): \(expected)")
            #expect(descended.hash == ordered.hash, "seed \(seed) step \(step): hash")
            #expect(NodePropertyTests.violation(in: descended) == nil, "seed \(seed) step \(step)")
            // Sometimes numbers near the ends of their ranges where increments land, and priorities on the upper
            // nodes (so deletes and adds meet below one) or on a number an increment replaces.
            if Int.random(in: 0..<3, using: &random) == 0 {
                let path = Edits.randomPath(&random)
                let number = Node(Self.numbers[Int.random(in: 0..<Self.numbers.count, using: &random)])
                descended.set(number, at: path)
                ordered.set(number, at: path)
            }
            if Int.random(in: 0..<5, using: &random) == 0 {
                let path =
                    Int.random(in: 0..<2, using: &random) == 0
                    ? Path(keys: [Edits.upperKeys[0]]) : Edits.randomPath(&random)
                descended.setPriority(.string("s\(step)"), at: path)
                ordered.setPriority(.string("s\(step)"), at: path)
            }
        }
        for (index, version) in kept.enumerated() {
            #expect(version.node.hash == version.hash, "seed \(seed): kept version \(index) changed")
        }
    }

    /// Firebase's sums, one by one: integers as `Int64` and past it as doubles, a double on either side as a double,
    /// the delta itself over a missing, non-numeric or prioritised-string value, and a number with a priority replaced
    /// by the sum without it. Each alone and beside a plain edit in the same parent (the one-descent way).
    @Test(arguments: [false, true])
    func eachIncrementAddsAsFirebaseDoes(besideAnotherEdit: Bool) throws {
        let tree = try Self.parse(
            #"{"c":{"i":5,"big":9223372036854775806,"d":1.5,"s":"x","b":true,"p":{".value":2,".priority":1},"o":{"k":1}}}"#
        )
        let cases: [(key: String, delta: LeafValue, sum: LeafValue)] = [
            ("i", .int(2), .int(7)), ("i", .double(0.5), .double(5.5)),
            ("big", .int(3), .double(9223372036854775806.0 + 3)), ("d", .int(1), .double(2.5)),
            ("s", .int(4), .int(4)), ("b", .int(4), .int(4)), ("missing", .double(-1), .double(-1)),
            ("p", .int(1), .int(3)), ("o", .int(1), .int(1)),
        ]
        for (key, delta, sum) in cases {
            let path = Path(keys: [B.key("c"), B.key(key)])
            var edits: [TreeEdit] = [.set(path, Node(delta))]
            var increments = TreeEdit.Increments()
            increments.insert(0)
            if besideAnotherEdit { edits.append(.set(Path(keys: [B.key("c"), B.key("zz")]), Node(.bool(true)))) }
            var applied = tree
            applied.apply(&edits, incrementing: increments)
            #expect(edits[0] == .set(path, Node(sum)), "\(key) + \(delta)")
            #expect(applied.node(at: path) == Node(sum), "\(key) + \(delta)")
            #expect(applied.node(at: path).priority == nil, "\(key): a set replaces the priority")
        }
    }

    /// An increment below a leaf finds no number there: it sets its delta, turning the leaf into a parent.
    @Test func anIncrementBelowALeafSetsItsDelta() throws {
        var tree = try Self.parse(#"{"a":{"leaf":3,"n":1}}"#)
        var edits: [TreeEdit] = [
            .set(Path(keys: [B.key("a"), B.key("leaf"), B.key("x")]), Node(.int(2))),
            .set(Path(keys: [B.key("a"), B.key("n")]), Node(.int(2))),
        ]
        var increments = TreeEdit.Increments()
        increments.insert(0)
        increments.insert(1)
        tree.apply(&edits, incrementing: increments)
        #expect(Self.json(tree) == #"{"a":{"leaf":{"x":2},"n":3}}"#)
    }

    static func parse(_ text: String) throws -> Node {
        try WriteValue(json: try JSONReader.parseValue(Array(text.utf8)), depth: 0).node
    }

    static func json(_ node: Node) -> String {
        String(decoding: node.jsonBytes(), as: UTF8.self)
    }

    /// The positions a set of increments names: the ones inserted, within 0..<64.
    @Test func incrementsNameTheirPositions() {
        var increments = TreeEdit.Increments()
        #expect(increments.isEmpty)
        for position in [0, 5, 63] { increments.insert(position) }
        #expect(!increments.isEmpty)
        #expect((0..<70).filter(increments.contains) == [0, 5, 63])
        #expect(!increments.contains(-1))
    }

    /// A double leaf of magnitude `hugeMagnitude` or more, made anywhere, raises the process's mark for good; smaller
    /// numbers cannot lower it. (That it is down before is not observable here: other suites make such numbers.)
    @Test func aHugeDoubleRaisesTheMark() {
        _ = Node(.double(-Node.hugeMagnitude), priority: .int(1))
        #expect(Node.mayHoldHugeNumbers)
        _ = Node(.double(1))
        #expect(Node.mayHoldHugeNumbers)
    }
}
