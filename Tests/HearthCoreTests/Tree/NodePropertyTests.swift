import HearthCore
import HearthTestKit
import Testing

/// `Node` writes against a naive model (a dictionary from leaf path to value), through seeded random operations.
@Suite struct NodePropertyTests {
    typealias B = Tree
    typealias LeafModel = [Path: LeafValue]

    /// Many first-level keys, so the root's child map grows past one B-tree leaf.
    static let topKeys: [Key] = (0..<300).map { B.key($0 % 3 == 0 ? "\($0)" : "t\($0)") }
    /// Few deeper keys, including integer-like ones, so writes collide often.
    static let innerKeys: [Key] = ["a", "b", "1", "2", "10", "007", "-3", "x y"].map { B.key($0) }
    static let strings = ["", "a", "hello", "10", "é"]

    static func randomLeaf(_ random: inout SeededRandom) -> LeafValue {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: .int(Int64.random(in: -3...3, using: &random))
        case 1: .double(Double(Int.random(in: -8...8, using: &random)) / 4)
        case 2: .bool(Bool.random(using: &random))
        default: .string(Self.strings[Int.random(in: 0..<Self.strings.count, using: &random)])
        }
    }

    static func randomPath(depth: Int, _ random: inout SeededRandom) -> Path {
        var keys: [Key] = []
        for level in 0..<depth {
            let pool = level == 0 ? Self.topKeys : Self.innerKeys
            keys.append(pool[Int.random(in: 0..<pool.count, using: &random)])
        }
        return Path(keys: keys)
    }

    /// A small random value: a leaf, or an object of up to three members, some of them empty.
    static func randomSubtree(levels: Int, _ random: inout SeededRandom) -> Node {
        if levels == 0 || Int.random(in: 0..<3, using: &random) == 0 {
            return Node(Self.randomLeaf(&random))
        }
        var members: [(String, Node)] = []
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            let name = Self.innerKeys[Int.random(in: 0..<Self.innerKeys.count, using: &random)].string
            let isEmpty = Int.random(in: 0..<5, using: &random) == 0
            let member = isEmpty ? Node.empty : Self.randomSubtree(levels: levels - 1, &random)
            members.append((name, member))
        }
        return B.object(members)
    }

    static func flatten(_ node: Node, at path: Path, into model: inout LeafModel) {
        if let value = node.leafValue {
            model[path] = value
        }
        for child in node.children {
            Self.flatten(child.node, at: path.appending(child.key), into: &model)
        }
    }

    static func flatten(_ node: Node) -> LeafModel {
        var model: LeafModel = [:]
        Self.flatten(node, at: .root, into: &model)
        return model
    }

    /// Builds a tree from scratch with bulk-built child maps (entries sorted by path, so siblings group together).
    static func build(_ entries: ArraySlice<(key: Path, value: LeafValue)>, depth: Int) -> Node {
        if let only = entries.first, entries.count == 1, only.key.count == depth {
            return Node(only.value)
        }
        var groups: [(key: Key, node: Node)] = []
        var start = entries.startIndex
        while start < entries.endIndex {
            let key = entries[start].key.keys[depth]
            var end = start + 1
            while end < entries.endIndex, entries[end].key.keys[depth] == key {
                end += 1
            }
            groups.append((key, Self.build(entries[start..<end], depth: depth + 1)))
            start = end
        }
        return Node(children: ChildMap(sortedUniqueElements: groups))
    }

    static func build(_ model: LeafModel) -> Node {
        let entries = model.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
        return Self.build(entries[...], depth: 0)
    }

    /// The first child map in `node` whose B-tree invariants fail, or a children node with no children.
    static func violation(in node: Node, at path: Path = .root) -> String? {
        guard !node.isLeaf, !node.isEmpty else { return nil }
        if node.children.isEmpty { return "children node without children at \(path)" }
        if let violation = node.children.invariantViolation() { return "\(path): \(violation)" }
        for child in node.children {
            if let violation = Self.violation(in: child.node, at: path.appending(child.key)) { return violation }
        }
        return nil
    }

    /// The model after writing `value` at `path`: everything at or below `path` goes, and when something is
    /// written, leaves above `path` go too (they turn into children nodes).
    static func apply(_ value: Node, at path: Path, to model: LeafModel) -> LeafModel {
        var written: LeafModel = [:]
        Self.flatten(value, at: path, into: &written)
        var updated = model.filter { !path.contains($0.key) }
        if !written.isEmpty {
            updated = updated.filter { !$0.key.contains(path) }
            updated.merge(written) { _, new in new }
        }
        return updated
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func randomWritesMatchLeafPathModel(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var root = Node.empty
        var model: LeafModel = [:]
        for step in 0..<300 {
            let context = "seed \(seed) step \(step)"
            let operation = Int.random(in: 0..<100, using: &random)
            let path: Path
            let value: Node
            switch operation {
            case 0..<50:
                path = Self.randomPath(depth: Int.random(in: 1...4, using: &random), &random)
                value = Node(Self.randomLeaf(&random))
            case 50..<75:
                path = Self.randomPath(depth: Int.random(in: 1...4, using: &random), &random)
                value = .empty
            case 75..<97:
                path = Self.randomPath(depth: Int.random(in: 1...3, using: &random), &random)
                value = Self.randomSubtree(levels: 4 - path.count, &random)
            default:
                path = .root
                value = Bool.random(using: &random) ? .empty : Self.randomSubtree(levels: 2, &random)
            }
            let previousRoot = root
            let previousModel = model
            let previousHash = root.hash
            root = root.setting(value, at: path)
            model = Self.apply(value, at: path, to: model)

            #expect(Self.flatten(root) == model, "\(context): set \(path)")
            let rebuilt = Self.build(model)
            #expect(rebuilt == root, "\(context): rebuilt tree differs")
            #expect(rebuilt.hash == root.hash, "\(context): hash differs from rebuilt tree")
            let violation = Self.violation(in: root)
            #expect(violation == nil, "\(context): \(violation ?? "")")
            #expect(Self.flatten(previousRoot) == previousModel, "\(context): previous root changed")
            #expect(previousRoot.hash == previousHash, "\(context): previous hash changed")
            #expect(root.node(at: path) == value, "\(context): read back \(path)")
        }
    }
}
