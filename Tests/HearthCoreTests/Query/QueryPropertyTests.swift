import HearthCore
import HearthTestKit
import Testing

/// Compares `QuerySpec.evaluate`/`orderedChildren`/`contains` with a naive reference on random trees and queries.
///
/// The reference sorts every child with a comparator written from §2.4/§4 alone, filters by the bounds exactly as
/// generated (before `QuerySpec` normalises them) and cuts by the limit.
@Suite struct QueryPropertyTests {
    static let keyPool = ["1", "2", "10", "-3", "007", "7", "a", "b", "B", "é", "z", "k0", "k1"]
    static let namePool = keyPool + ["[MIN_NAME]", "[MAX_NAME]", "[MAX_KEY]", "c", "0"]
    static let valuePool: [LeafValue] = [
        .bool(false), .bool(true), .int(-2), .int(0), .int(1), .int(2), .int(3), .double(1.0), .double(2.5),
        .double(-0.5), .double(3.0), .string(""), .string("a"), .string("b"), .string("A"), .string("é"),
        .string("10"),
    ]

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func evaluationMatchesNaiveReference(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        for iteration in 0..<1500 {
            let node = Self.randomTree(&random)
            let (index, start, end, limit) = Self.randomQuery(&random)
            let spec: QuerySpec
            do {
                spec = try QuerySpec(index: index, start: start, end: end, limit: limit)
            } catch {
                Issue.record("seed \(seed) iteration \(iteration): valid query rejected: \(error)")
                return
            }
            let reference = Reference(index: index, start: start, end: end, limit: limit)
            let expected = reference.window(node)
            let context = "seed \(seed) iteration \(iteration): \(spec.wireObject) on \(Tree.keys(node))"
            let actual = spec.orderedChildren(node)
            guard Tree.keys(actual) == expected.map(\.key.string) else {
                Issue.record("\(context): window \(Tree.keys(actual)) != \(expected.map(\.key.string))")
                return
            }
            let expectedNode = Node(children: ChildMap(sortedUniqueElements: expected.sorted { $0.key < $1.key }))
            guard spec.evaluate(node) == expectedNode else {
                Issue.record("\(context): evaluate gave \(Tree.keys(spec.evaluate(node)))")
                return
            }
            for (key, child) in node.children
            where spec.contains(key: key, node: child) != reference.inRange(key, child) {
                Issue.record("\(context): contains(\(key)) disagrees with the reference")
                return
            }
            let roundTripped = try QuerySpec(wire: spec.wireObject)
            guard roundTripped == spec, Tree.keys(roundTripped.orderedChildren(node)) == Tree.keys(actual) else {
                Issue.record("\(context): wire round trip changed the query to \(roundTripped.wireObject)")
                return
            }
        }
    }

    static func randomLeaf(_ random: inout SeededRandom) -> LeafValue {
        Self.valuePool[Int.random(in: 0..<Self.valuePool.count, using: &random)]
    }

    static func randomPriority(_ random: inout SeededRandom) -> Priority? {
        switch Int.random(in: 0..<6, using: &random) {
        case 0: .int(Int64.random(in: -1...2, using: &random))
        case 1: .double([0.5, 1.0, 2.0][Int.random(in: 0..<3, using: &random)])
        case 2: .string(["a", "b", ""][Int.random(in: 0..<3, using: &random)])
        default: nil
        }
    }

    /// A child: a leaf, or an object that may hold `c` (a leaf or an object that may hold `d`).
    static func randomChild(_ random: inout SeededRandom) -> Node {
        let priority = Self.randomPriority(&random)
        switch Int.random(in: 0..<4, using: &random) {
        case 0, 1:
            return Tree.leaf(Self.randomLeaf(&random), priority: priority)
        case 2:
            let inner =
                Bool.random(using: &random)
                ? Tree.leaf(Self.randomLeaf(&random))
                : Tree.object([("d", Tree.leaf(Self.randomLeaf(&random))), ("e", Tree.leaf(.int(1)))])
            return Tree.object([("c", inner), ("x", Tree.leaf(.int(0)))], priority: priority)
        default:
            return Tree.object([("x", Tree.leaf(Self.randomLeaf(&random)))], priority: priority)
        }
    }

    static func randomTree(_ random: inout SeededRandom) -> Node {
        if Int.random(in: 0..<20, using: &random) == 0 { return Tree.leaf(.int(1)) }
        var members: [(String, Node)] = []
        for key in Self.keyPool where Int.random(in: 0..<3, using: &random) == 0 {
            members.append((key, Self.randomChild(&random)))
        }
        return Tree.object(members, priority: Self.randomPriority(&random))
    }

    static func randomBound(_ index: QueryIndex, _ random: inout SeededRandom) -> QueryBound? {
        guard Bool.random(using: &random) else { return nil }
        var value: LeafValue?
        switch index {
        case .key:
            value = .string(Self.namePool[Int.random(in: 0..<Self.namePool.count, using: &random)])
        case .priority:
            repeat {
                value = Int.random(in: 0..<5, using: &random) == 0 ? nil : Self.randomLeaf(&random)
            } while value == .bool(true) || value == .bool(false)
        case .value, .child:
            value = Int.random(in: 0..<5, using: &random) == 0 ? nil : Self.randomLeaf(&random)
        }
        let name: Key? =
            Bool.random(using: &random)
            ? nil : Tree.key(Self.namePool[Int.random(in: 0..<Self.namePool.count, using: &random)])
        return QueryBound(value, name: name, inclusive: Bool.random(using: &random))
    }

    static func randomQuery(
        _ random: inout SeededRandom
    ) -> (QueryIndex, QueryBound?, QueryBound?, QueryLimit?) {
        let indexes: [QueryIndex] = [
            .priority, .key, .value, .child(Path(keys: [Tree.key("c")])),
            .child(Path(keys: [Tree.key("c"), Tree.key("d")])),
        ]
        let index = indexes[Int.random(in: 0..<indexes.count, using: &random)]
        let start = Self.randomBound(index, &random)
        let end = Self.randomBound(index, &random)
        var limit: QueryLimit?
        switch Int.random(in: 0..<5, using: &random) {
        case 0, 1: limit = .first(Int.random(in: 1...5, using: &random))
        case 2, 3: limit = .last(Int.random(in: 1...5, using: &random))
        default: limit = nil
        }
        return (index, start, end, limit)
    }
}

/// The naive query: sort everything, filter by the posts, cut by the limit.
private struct Reference {
    let index: QueryIndex
    let start: QueryBound?
    let end: QueryBound?
    let limit: QueryLimit?

    /// A value's place in §4.2's order: a class rank, then a number or UTF-16 code units within the class.
    struct Rank {
        var kind: Int
        var number: Double = 0
        var text: [UInt16] = []

        static func compare(_ lhs: Rank, _ rhs: Rank) -> Int {
            if lhs.kind != rhs.kind { return lhs.kind < rhs.kind ? -1 : 1 }
            if lhs.number != rhs.number { return lhs.number < rhs.number ? -1 : 1 }
            if lhs.text == rhs.text { return 0 }
            return lhs.text.lexicographicallyPrecedes(rhs.text) ? -1 : 1
        }
    }

    static func rank(_ leaf: LeafValue?) -> Rank {
        switch leaf {
        case nil: Rank(kind: 0)
        case .bool(let value)?: Rank(kind: value ? 2 : 1)
        case .int(let value)?: Rank(kind: 3, number: Double(value))
        case .double(let value)?: Rank(kind: 3, number: value)
        case .string(let value)?: Rank(kind: 4, text: Array(value.utf16))
        }
    }

    static func rank(_ node: Node) -> Rank {
        if node.isEmpty { return Rank(kind: 0) }
        if let leaf = node.leafValue { return Self.rank(leaf) }
        return Rank(kind: 5)
    }

    func rank(of child: Node) -> Rank {
        switch self.index {
        case .key: return Rank(kind: 0)
        case .value: return Self.rank(child)
        case .child(let path): return Self.rank(child.node(at: path))
        case .priority:
            switch child.priority {
            case nil: return Rank(kind: 0)
            case .int(let value)?: return Rank(kind: 3, number: Double(value))
            case .double(let value)?: return Rank(kind: 3, number: value)
            case .string(let value)?: return Rank(kind: 4, text: Array(value.utf16))
            }
        }
    }

    func precedes(_ lhs: (key: Key, node: Node), _ rhs: (key: Key, node: Node)) -> Bool {
        if self.index == .priority {
            return PriorityOrder.precedes(lhs.node.priority, lhs.key, rhs.node.priority, rhs.key)
        }
        let order = Rank.compare(self.rank(of: lhs.node), self.rank(of: rhs.node))
        return order != 0 ? order < 0 : lhs.key < rhs.key
    }

    /// -1, 0 or 1 comparing a key with a name, sentinels at the ends.
    static func compare(_ key: Key, name: String) -> Int {
        switch name {
        case "[MIN_NAME]": return 1
        case "[MAX_NAME]", "[MAX_KEY]": return -1
        default:
            let other = Key(unchecked: name)
            return key < other ? -1 : (other < key ? 1 : 0)
        }
    }

    /// -1, 0 or 1 comparing a child with a bound's post.
    func compare(_ key: Key, _ child: Node, _ bound: QueryBound, defaultName: String) -> Int {
        if self.index == .key {
            guard case .string(let name)? = bound.value else { preconditionFailure("generated key bound \(bound)") }
            return Self.compare(key, name: name)
        }
        let order = Rank.compare(self.rank(of: child), Self.rank(bound.value))
        if order != 0 { return order }
        return Self.compare(key, name: bound.name?.string ?? defaultName)
    }

    func inRange(_ key: Key, _ child: Node) -> Bool {
        if let start = self.start {
            let order = self.compare(key, child, start, defaultName: "[MIN_NAME]")
            if order < 0 || (order == 0 && !start.inclusive) { return false }
        }
        if let end = self.end {
            let order = self.compare(key, child, end, defaultName: "[MAX_NAME]")
            if order > 0 || (order == 0 && !end.inclusive) { return false }
        }
        return true
    }

    func window(_ node: Node) -> [(key: Key, node: Node)] {
        let all = Array(node.children).sorted(by: self.precedes)
        let inRange = all.filter { self.inRange($0.key, $0.node) }
        guard let limit = self.limit else { return inRange }
        return limit.anchor == .first ? Array(inRange.prefix(limit.count)) : Array(inRange.suffix(limit.count))
    }
}
