import HearthTestKit
import Testing

@testable import HearthCore

/// Small leaves held inline (integers within Int32's range and booleans, without a priority), other leaves without
/// a priority in a box of their kind (strings as their bytes), and the same leaves in storage are one value to every
/// observer: equality both ways, hashes, JSON, orders, snapshots' binary form, and every update.
@Suite struct NodeInlineLeafTests {
    typealias B = Tree

    /// The same tree with every leaf in storage: the form every leaf had before inline leaves.
    static func stored(_ node: Node) -> Node {
        if let value = node.leafValue {
            return Node(storage: Node.Storage(content: .leaf(Node.LeafBox(value)), priority: node.priority))
        }
        guard !node.isEmpty else { return .empty }
        let children = node.children.map { (key: $0.key, node: Self.stored($0.node)) }
        return Node(children: ChildMap(sortedUniqueElements: children), priority: node.priority)
    }

    static func randomLeaf(_ random: inout SeededRandom) -> Node {
        let value: LeafValue =
            switch Int.random(in: 0..<5, using: &random) {
            case 0: .int(Int64.random(in: -3...3, using: &random))
            case 1:
                .int(
                    [Int64(Int32.min), Int64(Int32.max), Int64(Int32.max) + 1, Int64.min][
                        Int.random(in: 0..<4, using: &random)])
            case 2: .bool(Bool.random(using: &random))
            case 3: .double(Double(Int.random(in: -8...8, using: &random)) / 4)
            default: .string(Self.strings[Int.random(in: 0..<Self.strings.count, using: &random)])
            }
        let priority: Priority? =
            Int.random(in: 0..<4, using: &random) == 0 ? .int(Int64.random(in: 0...2, using: &random)) : nil
        return Node(value, priority: priority)
    }

    /// Short and long strings, and strings JSON escapes.
    static let strings = [
        "", "1", "a", "a string longer than fifteen bytes", "quote \" backslash \\ newline \n",
        "\u{2028}sep\u{2029}", "snow ☃ and 🔥", String(repeating: "x", count: 300),
    ]

    static func randomTree(levels: Int, _ random: inout SeededRandom) -> Node {
        guard levels > 0, Int.random(in: 0..<4, using: &random) != 0 else { return Self.randomLeaf(&random) }
        var members: [(String, Node)] = []
        for _ in 0..<Int.random(in: 1...12, using: &random) {
            let name = ["a", "b", "1", "2", "10", "-3", "x"][Int.random(in: 0..<7, using: &random)]
            members.append((name, Self.randomTree(levels: levels - 1, &random)))
        }
        return B.object(members, priority: Int.random(in: 0..<5, using: &random) == 0 ? .string("p") : nil)
    }

    /// How `node` is held.
    static func form(_ node: Node) -> String {
        switch node.representation {
        case .empty: "empty"
        case .integer, .boolean: "inline"
        case .double, .largeInteger, .string: "boxed"
        case .stored: "stored"
        }
    }

    @Test func aSmallLeafIsOneWordAndAKeyIsItsString() {
        #expect(MemoryLayout<Node>.size == 8)
        #expect(MemoryLayout<Key>.size == 16)
        #expect(Self.form(Node(.int(Int64(Int32.max)))) == "inline")
        #expect(Self.form(Node(.int(Int64(Int32.min)))) == "inline")
        #expect(Self.form(Node(.bool(false))) == "inline")
        #expect(Self.form(Node(.int(Int64(Int32.max) + 1))) == "boxed", "beyond Int32 a number is boxed")
        #expect(Self.form(Node(.string("s"))) == "boxed")
        #expect(Self.form(Node(.int(1), priority: .int(1))) == "stored", "a priority needs storage")
        #expect(Self.form(Node(.string("s"), priority: .int(1))) == "stored")
        #expect(
            Self.form(Node(.int(1), priority: .int(1)).withPriority(nil)) == "inline", "dropping it goes back inline")
        #expect(Self.form(Node(.string("s"), priority: .int(1)).withPriority(nil)) == "boxed")
        #expect(Node(.double(1)) != Node(.int(1)), "a double stays a double")
    }

    @Test func theFormsAreOneValueToEveryObserver() throws {
        var random = SeededRandom(seed: 0x1A1F)
        let indexes: [QueryIndex] = [.key, .priority, .value, .child(Path(keys: [B.key("a")]))]
        for _ in 0..<400 {
            let tree = Self.randomTree(levels: 3, &random)
            let other = Self.stored(tree)
            #expect(tree == other && other == tree)
            #expect(tree.hash == other.hash)
            #expect(tree.jsonBytes(format: .export) == other.jsonBytes(format: .export))
            #expect(tree.jsonBytes() == other.jsonBytes())
            var binary: [UInt8] = []
            var storedBinary: [UInt8] = []
            if !tree.isEmpty {
                NodeBinary.append(tree, to: &binary)
                NodeBinary.append(other, to: &storedBinary)
                #expect(binary == storedBinary)
                #expect(try binary.withUnsafeBytes { try NodeBinary.decode($0) } == tree)
            }
            #expect(tree.isLeaf == other.isLeaf && tree.leafValue == other.leafValue && tree.priority == other.priority)
            let children = Array(tree.children)
            let storedChildren = Array(other.children)
            for index in indexes {
                let sorted = children.sorted(by: index.precedes).map(\.key)
                #expect(sorted == storedChildren.sorted(by: index.precedes).map(\.key), "order under \(index)")
            }
            let path = Path(keys: [B.key(["a", "1", "x"][Int.random(in: 0..<3, using: &random)])])
            let value = Self.randomLeaf(&random)
            #expect(tree.setting(value, at: path) == other.setting(Self.stored(value), at: path))
            var inPlace = tree
            inPlace.set(value, at: path)
            #expect(inPlace == tree.setting(value, at: path))
            #expect(tree.withPriority(.int(9)) == other.withPriority(.int(9)))
            if let leaf = tree.leafValue {
                #expect(tree.isIdentical(to: Node(leaf, priority: tree.priority)) == (Self.form(tree) == "inline"))
            }
        }
    }
}
