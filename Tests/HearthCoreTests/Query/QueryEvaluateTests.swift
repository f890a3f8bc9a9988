import HearthCore
import Testing

@Suite struct QueryEvaluateTests {
    /// Values with ties: `b`, `c`, `d` all hold 2 (one as a double).
    static let scores = Tree.object(
        [
            ("a", Tree.leaf(.int(1))),
            ("b", Tree.leaf(.int(2))),
            ("c", Tree.leaf(.double(2.0))),
            ("d", Tree.leaf(.int(2))),
            ("e", Tree.leaf(.int(3))),
            ("f", Tree.leaf(.string("x"))),
            ("g", Tree.leaf(.bool(true))),
            ("h", Tree.object([("n", Tree.leaf(.int(0)))])),
        ],
        priority: .int(99)
    )

    func window(_ spec: QuerySpec, _ node: Node = QueryEvaluateTests.scores) -> [String] {
        Tree.keys(spec.orderedChildren(node))
    }

    func evaluated(_ spec: QuerySpec, _ node: Node = QueryEvaluateTests.scores) -> [String] {
        Tree.keys(spec.evaluate(node))
    }

    @Test func leafOrEmptyNodeEvaluatesToEmpty() throws {
        let spec = try QuerySpec(index: .value, limit: .first(2))
        #expect(spec.evaluate(Tree.leaf(.int(5))) == .empty)
        #expect(spec.evaluate(.empty) == .empty)
        #expect(spec.orderedChildren(Tree.leaf(.int(5))).isEmpty)
        #expect(QuerySpec.default.evaluate(Tree.leaf(.int(5))) == .empty)
    }

    @Test func resultDropsRootPriorityButKeepsChildPriorities() throws {
        let node = Tree.object([("a", Tree.leaf(.int(1), priority: .int(4)))], priority: .string("root"))
        let all = QuerySpec.default.evaluate(node)
        #expect(all.priority == nil)
        #expect(all.child(Tree.key("a")).priority == .int(4))
        let limited = try QuerySpec(index: .value, limit: .first(1)).evaluate(node)
        #expect(limited.priority == nil)
        #expect(limited.child(Tree.key("a")).priority == .int(4))
    }

    @Test func queryWithoutRangeOrLimitKeepsEveryChild() throws {
        #expect(self.evaluated(try QuerySpec(index: .value)).count == 8)
        #expect(self.window(try QuerySpec(index: .value)) == ["g", "a", "b", "c", "d", "e", "f", "h"])
    }

    @Test func startAtAndEndAtAreInclusive() throws {
        let spec = try QuerySpec(index: .value, start: QueryBound(.int(2)), end: QueryBound(.int(3)))
        #expect(self.window(spec) == ["b", "c", "d", "e"])
        #expect(self.evaluated(spec) == ["b", "c", "d", "e"])
    }

    @Test func startAtWithNameSkipsEarlierKeysOfTheSameValue() throws {
        let spec = try QuerySpec(index: .value, start: QueryBound(.int(2), name: Tree.key("c")))
        #expect(self.window(spec) == ["c", "d", "e", "f", "h"])
    }

    @Test func endAtWithNameStopsAtThatKey() throws {
        let spec = try QuerySpec(index: .value, end: QueryBound(.int(2), name: Tree.key("c")))
        #expect(self.window(spec) == ["g", "a", "b", "c"])
    }

    @Test func startAfterWithoutNameSkipsEveryChildWithThatValue() throws {
        let spec = try QuerySpec(index: .value, start: QueryBound(.int(2), name: Key.maxName, inclusive: false))
        #expect(self.window(spec) == ["e", "f", "h"])
    }

    @Test func startAfterWithNameSkipsThroughThatKey() throws {
        let spec = try QuerySpec(index: .value, start: QueryBound(.int(2), name: Tree.key("c"), inclusive: false))
        #expect(self.window(spec) == ["d", "e", "f", "h"])
    }

    @Test func endBeforeWithoutNameStopsBeforeEveryChildWithThatValue() throws {
        let spec = try QuerySpec(index: .value, end: QueryBound(.int(2), name: Key.minName, inclusive: false))
        #expect(self.window(spec) == ["g", "a"])
    }

    @Test func endBeforeWithNameStopsBeforeThatKey() throws {
        let spec = try QuerySpec(index: .value, end: QueryBound(.int(2), name: Tree.key("c"), inclusive: false))
        #expect(self.window(spec) == ["g", "a", "b"])
    }

    @Test func equalToMatchesIntsAndDoublesAlike() throws {
        let bound = QueryBound(.double(2.0))
        #expect(self.window(try QuerySpec(index: .value, start: bound, end: bound)) == ["b", "c", "d"])
        let named = QueryBound(.int(2), name: Tree.key("d"))
        #expect(self.window(try QuerySpec(index: .value, start: named, end: named)) == ["d"])
    }

    /// Android spells the largest name `[MAX_KEY]`; it must behave exactly like `[MAX_NAME]`.
    @Test func androidMaxKeyNameIsPlusInfinity() throws {
        let android = try QuerySpec(index: .value, start: QueryBound(.int(2), name: Tree.key("[MAX_KEY]")))
        let javascript = try QuerySpec(index: .value, start: QueryBound(.int(2), name: Key.maxName, inclusive: false))
        #expect(self.window(android) == ["e", "f", "h"])
        #expect(android == javascript)
        let end = try QuerySpec(index: .value, end: QueryBound(.int(2), name: Tree.key("[MAX_KEY]")))
        #expect(self.window(end) == ["g", "a", "b", "c", "d"])
    }

    @Test func limitToFirstAndLastCutTheOrderedRange() throws {
        #expect(self.window(try QuerySpec(index: .value, limit: .first(3))) == ["g", "a", "b"])
        #expect(self.window(try QuerySpec(index: .value, limit: .last(3))) == ["e", "f", "h"])
        let ranged = try QuerySpec(index: .value, start: QueryBound(.int(2)), end: QueryBound(.int(3)), limit: .last(2))
        #expect(self.window(ranged) == ["d", "e"])
        #expect(self.evaluated(ranged) == ["d", "e"])
        let first = try QuerySpec(index: .value, start: QueryBound(.int(2)), limit: .first(2))
        #expect(self.window(first) == ["b", "c"])
        let large = try QuerySpec(index: .value, start: QueryBound(.string("x")), limit: .first(1_000_000_000))
        #expect(self.window(large) == ["f", "h"])
    }

    @Test func emptyRangeGivesEmptyResult() throws {
        let spec = try QuerySpec(index: .value, start: QueryBound(.int(3)), end: QueryBound(.int(2)), limit: .first(2))
        #expect(self.window(spec).isEmpty)
        #expect(spec.evaluate(Self.scores) == .empty)
    }

    /// §2.4: under the priority index `startAt(null)` includes children without a priority, `startAt(1)` does not.
    @Test func priorityStartAtNullIncludesChildrenWithoutPriority() throws {
        let node = Tree.object([
            ("none", Tree.leaf(.int(0))),
            ("one", Tree.leaf(.int(0), priority: .int(1))),
            ("two", Tree.leaf(.int(0), priority: .double(2))),
            ("word", Tree.leaf(.int(0), priority: .string("w"))),
        ])
        #expect(self.window(try QuerySpec(start: QueryBound(nil)), node) == ["none", "one", "two", "word"])
        #expect(self.window(try QuerySpec(start: QueryBound(.int(1))), node) == ["one", "two", "word"])
        #expect(self.window(try QuerySpec(end: QueryBound(nil)), node) == ["none"])
        #expect(self.window(try QuerySpec(start: QueryBound(.string("a"))), node) == ["word"])
        #expect(self.window(try QuerySpec(limit: .last(2)), node) == ["two", "word"])
    }

    @Test func childIndexTreatsMissingChildrenAsNull() throws {
        let node = Tree.object([
            ("p", Tree.object([("age", Tree.leaf(.int(30)))])),
            ("q", Tree.object([("name", Tree.leaf(.string("no age")))])),
            ("r", Tree.object([("age", Tree.leaf(.int(20)))])),
        ])
        let index = QueryIndex.child(try Path(validating: "age"))
        #expect(self.window(try QuerySpec(index: index), node) == ["q", "r", "p"])
        #expect(self.window(try QuerySpec(index: index, start: QueryBound(.int(0))), node) == ["r", "p"])
        #expect(self.window(try QuerySpec(index: index, end: QueryBound(nil)), node) == ["q"])
    }

    static let numbered = Tree.object(
        ["1", "2", "10", "007", "7", "-3", "a", "b", "c"].map { ($0, Tree.leaf(.string($0))) }
    )

    @Test func keyIndexWalksIntegerKeysNumerically() throws {
        let node = Self.numbered
        #expect(self.window(try QuerySpec(index: .key), node) == ["-3", "1", "2", "7", "007", "10", "a", "b", "c"])
        #expect(self.window(try QuerySpec(index: .key, start: QueryBound(.string("2"))), node).first == "2")
        let middle = try QuerySpec(index: .key, start: QueryBound(.string("3")), end: QueryBound(.string("a")))
        #expect(self.window(middle, node) == ["7", "007", "10", "a"])
        #expect(self.evaluated(middle, node) == ["7", "007", "10", "a"])
    }

    @Test func keyIndexBoundsAndLimitsCombine() throws {
        let node = Self.numbered
        let after = try QuerySpec(index: .key, start: QueryBound(.string("10"), inclusive: false), limit: .first(2))
        #expect(self.window(after, node) == ["a", "b"])
        let before = try QuerySpec(index: .key, end: QueryBound(.string("a"), inclusive: false), limit: .last(2))
        #expect(self.window(before, node) == ["007", "10"])
        let last = try QuerySpec(index: .key, start: QueryBound(.string("b")), limit: .last(5))
        #expect(self.window(last, node) == ["b", "c"])
        let first = try QuerySpec(index: .key, end: QueryBound(.string("1")), limit: .first(5))
        #expect(self.window(first, node) == ["-3", "1"])
        let equal = try QuerySpec(index: .key, start: QueryBound(.string("7")), end: QueryBound(.string("7")))
        #expect(self.window(equal, node) == ["7"])
        let absent = try QuerySpec(index: .key, start: QueryBound(.string("zz")))
        #expect(self.window(absent, node).isEmpty)
    }

    @Test func keyIndexIgnoresBoundNamesAndAcceptsSentinelKeys() throws {
        let node = Self.numbered
        let named = try QuerySpec(index: .key, start: QueryBound(.string("b"), name: Tree.key("zzz")))
        #expect(self.window(named, node) == ["b", "c"])
        let fromMin = try QuerySpec(index: .key, start: QueryBound(.string("[MIN_NAME]"), inclusive: false))
        #expect(self.window(fromMin, node).count == 9)
        let toMax = try QuerySpec(index: .key, end: QueryBound(.string("[MAX_KEY]")), limit: .last(1))
        #expect(self.window(toMax, node) == ["c"])
        let beyond = try QuerySpec(index: .key, start: QueryBound(.string("[MAX_NAME]")))
        #expect(self.window(beyond, node).isEmpty)
    }

    @Test func containsChecksTheRangeButNotTheLimit() throws {
        let spec = try QuerySpec(index: .value, start: QueryBound(.int(2)), end: QueryBound(.int(3)), limit: .first(1))
        #expect(spec.contains(key: Tree.key("e"), node: Tree.leaf(.int(3))))
        #expect(spec.contains(key: Tree.key("zz"), node: Tree.leaf(.double(2.5))))
        #expect(!spec.contains(key: Tree.key("a"), node: Tree.leaf(.int(1))))
        #expect(!spec.contains(key: Tree.key("a"), node: .empty))
        let keys = try QuerySpec(index: .key, start: QueryBound(.string("b")), end: QueryBound(.string("c")))
        #expect(keys.contains(key: Tree.key("b"), node: Tree.leaf(.int(0))))
        #expect(!keys.contains(key: Tree.key("d"), node: Tree.leaf(.int(0))))
    }

    @Test func boundsThatDoNotFitTheIndexAreRejected() throws {
        #expect(throws: QueryError.self) { try QuerySpec(index: .key, start: QueryBound(.int(1))) }
        #expect(throws: QueryError.self) { try QuerySpec(index: .key, end: QueryBound(nil)) }
        #expect(throws: QueryError.self) { try QuerySpec(start: QueryBound(.bool(true))) }
        #expect(throws: QueryError.self) { try QuerySpec(index: .child(.root)) }
    }

    @Test func defaultAndLoadsAllDataDistinguishIndexFromFilters() throws {
        #expect(QuerySpec.default.isDefault && QuerySpec.default.loadsAllData)
        let byValue = try QuerySpec(index: .value)
        #expect(!byValue.isDefault && byValue.loadsAllData)
        let limited = try QuerySpec(limit: .first(1))
        #expect(!limited.isDefault && !limited.loadsAllData)
    }
}
