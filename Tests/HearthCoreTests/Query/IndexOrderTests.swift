import HearthCore
import HearthTestKit
import Testing

@Suite struct IndexOrderTests {
    /// One value of each kind, in the order §4.2 sorts them (keys chosen so no tie-break is needed).
    static let mixed: [(String, LeafValue)] = [
        ("f", .bool(false)),
        ("t", .bool(true)),
        ("neg", .double(-2.5)),
        ("zero", .int(0)),
        ("one", .int(1)),
        ("onePointFive", .double(1.5)),
        ("big", .int(1_000_000_000_000)),
        ("emptyString", .string("")),
        ("upper", .string("Z")),
        ("lower", .string("a")),
        ("accented", .string("é")),
        ("astral", .string("\u{1F600}")),
        ("private", .string("\u{FFFF}")),
    ]

    @Test func childIndexOrdersNullBoolNumberStringObject() throws {
        let index = QueryIndex.child(try Path(validating: "v"))
        var children = Self.mixed.map { name, value in
            (key: Tree.key(name), node: Tree.object([("v", Tree.leaf(value))]))
        }
        children.append((key: Tree.key("objB"), node: Tree.object([("v", Tree.object([("z", Tree.leaf(.int(1)))]))])))
        children.append((key: Tree.key("objA"), node: Tree.object([("v", Tree.object([("a", Tree.leaf(.int(9)))]))])))
        children.append((key: Tree.key("noV"), node: Tree.object([("w", Tree.leaf(.int(1)))])))
        children.append((key: Tree.key("leafChild"), node: Tree.leaf(.string("no v below a leaf"))))
        var random = SeededRandom(seed: 7)
        let sorted = children.shuffled(using: &random).sorted(by: index.precedes)
        let expected = ["leafChild", "noV"] + Self.mixed.map(\.0) + ["objA", "objB"]
        #expect(Tree.keys(sorted) == expected)
    }

    /// Strings compare by UTF-16 code units, so an astral character (a surrogate pair, 0xD83D…) sorts before U+FFFF.
    @Test func valueIndexComparesStringsByUTF16CodeUnits() {
        let children = [("a", "\u{FFFF}"), ("b", "\u{1F600}"), ("c", "é"), ("d", "z")].map {
            (key: Tree.key($0.0), node: Tree.leaf(.string($0.1)))
        }
        #expect(Tree.keys(children.sorted(by: QueryIndex.value.precedes)) == ["d", "c", "b", "a"])
    }

    @Test func equalValuesTieByKeyOrderIncludingIntAgainstDouble() {
        let children: [(key: Key, node: Node)] = [
            (Tree.key("b"), Tree.leaf(.int(1))),
            (Tree.key("10"), Tree.leaf(.double(1.0))),
            (Tree.key("a"), Tree.leaf(.double(1.0))),
            (Tree.key("2"), Tree.leaf(.int(1))),
            (Tree.key("obj2"), Tree.object([("x", Tree.leaf(.int(9)))])),
            (Tree.key("obj1"), Tree.object([("y", Tree.leaf(.int(0)))])),
        ]
        let sorted = children.sorted(by: QueryIndex.value.precedes)
        #expect(Tree.keys(sorted) == ["2", "10", "a", "b", "obj1", "obj2"])
    }

    @Test func nestedChildPathReadsDeepValuesAndTreatsMissingAsNull() throws {
        let index = QueryIndex.child(try Path(validating: "a/b"))
        let children: [(key: Key, node: Node)] = [
            (Tree.key("x"), Tree.object([("a", Tree.object([("b", Tree.leaf(.int(3)))]))])),
            (Tree.key("y"), Tree.object([("a", Tree.leaf(.int(100)))])),
            (Tree.key("z"), Tree.object([("a", Tree.object([("b", Tree.leaf(.int(2)))]))])),
            (Tree.key("w"), Tree.leaf(.string("leaf child"))),
            (Tree.key("v"), Tree.object([("a", Tree.object([("b", Tree.object([("c", Tree.leaf(.int(0)))]))]))])),
        ]
        let sorted = children.sorted(by: index.precedes)
        #expect(Tree.keys(sorted) == ["w", "y", "z", "x", "v"])
    }

    @Test func valueIndexIgnoresPriorities() {
        let children: [(key: Key, node: Node)] = [
            (Tree.key("a"), Tree.leaf(.int(2), priority: .int(1))),
            (Tree.key("b"), Tree.leaf(.int(1), priority: .int(5))),
        ]
        #expect(Tree.keys(children.sorted(by: QueryIndex.value.precedes)) == ["b", "a"])
    }

    @Test func priorityIndexPutsNoPriorityFirstThenNumbersThenStrings() {
        let children: [(key: Key, node: Node)] = [
            (Tree.key("s"), Tree.leaf(.int(0), priority: .string("a"))),
            (Tree.key("n2"), Tree.leaf(.int(0), priority: .double(2.5))),
            (Tree.key("none"), Tree.leaf(.int(0))),
            (Tree.key("n1"), Tree.leaf(.int(0), priority: .int(1))),
            (Tree.key("m1"), Tree.leaf(.int(0), priority: .double(1.0))),
            (Tree.key("S"), Tree.leaf(.int(0), priority: .string("B"))),
        ]
        let sorted = children.sorted(by: QueryIndex.priority.precedes)
        #expect(Tree.keys(sorted) == ["none", "m1", "n1", "n2", "S", "s"])
    }

    @Test func keyIndexUsesIntegerKeyOrder() {
        let names = ["-5", "0", "1", "7", "07", "9", "10", "2147483647", "-", "1a", "2147483648", "A", "a"]
        let children = names.reversed().map { (key: Tree.key($0), node: Tree.leaf(.int(0))) }
        #expect(Tree.keys(children.sorted(by: QueryIndex.key.precedes)) == names)
    }
}
