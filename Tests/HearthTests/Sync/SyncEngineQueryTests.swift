import HearthCore
import HearthWire
import Testing

@testable import Hearth

@Suite struct SyncEngineQueryTests {
    /// A `limitToLast(2)` inside a cached `limitToLast(4)` is answered from the cache, value included, offline.
    @Test func aSmallerWindowFromACachedOne() throws {
        var probe = EngineProbe()
        let four = try QuerySpec(index: .key, limit: .last(4))
        let two = try QuerySpec(index: .key, limit: .last(2))
        try probe.listen(1, "list", query: four)
        try probe.push("list", #"{"c": 3, "d": 4, "e": 5, "f": 6}"#, tag: 1)
        try probe.answer("list", query: four, tag: 1)
        probe.server(.disconnected)
        try probe.listen(2, "list", query: two)
        #expect(probe.lastEvents(2) == ["added e after - 5", "added f after e 6", #"value {"e":5,"f":6}"#])
    }

    /// A query never answered raises no value, even when a window at the same place holds some of its children.
    @Test func noValueForAQueryNeverCompleted() throws {
        var probe = EngineProbe()
        let last = try QuerySpec(index: .key, limit: .last(2))
        let first = try QuerySpec(index: .key, limit: .first(1))
        try probe.listen(1, "list", query: last)
        try probe.push("list", #"{"c": 3, "d": 4}"#, tag: 1)
        try probe.answer("list", query: last, tag: 1)
        try probe.listen(2, "list", query: first)
        #expect(probe.lastEvents(2) == ["added c after - 3"])
    }

    /// A local write into a limited window pushes the oldest child out.
    @Test func writesMoveTheLimitWindow() throws {
        var probe = EngineProbe()
        let last = try QuerySpec(index: .key, limit: .last(2))
        try probe.listen(1, "list", query: last)
        try probe.push("list", #"{"c": 3, "d": 4}"#, tag: 1)
        try probe.answer("list", query: last, tag: 1)
        try probe.set("list/e", "5")
        #expect(probe.lastEvents(1) == ["removed c", "added e after d 5", #"value {"d":4,"e":5}"#])
    }

    /// A filtered view under a complete listen is computed from the whole data, and orders by its index.
    @Test func queriesUnderACompleteListen() throws {
        var probe = EngineProbe()
        try probe.listen(1, "scores")
        try probe.push("scores", #"{"ann": 7, "bob": 3, "cy": 9}"#)
        try probe.answer("scores")
        let top = try QuerySpec(index: .value, limit: .last(2))
        try probe.listen(2, "scores", query: top)
        #expect(probe.last.commands.isEmpty)
        #expect(probe.lastEvents(2) == ["added ann after - 7", "added cy after ann 9", #"value {"ann":7,"cy":9}"#])
        try probe.set("scores/bob", "8")
        #expect(probe.lastEvents(2) == ["removed ann", "added bob after - 8", #"value {"bob":8,"cy":9}"#])
        try probe.set("scores/cy", "1")
        #expect(probe.lastEvents(2) == ["removed cy", "added ann after - 7", #"value {"ann":7,"bob":8}"#])
    }

    /// A child whose ordering value changes inside the window moves.
    @Test func childMovedInsideTheWindow() throws {
        var probe = EngineProbe()
        let byValue = try QuerySpec(index: .value)
        try probe.listen(1, "list", query: byValue)
        try probe.push("list", #"{"a": 1, "b": 2}"#)
        try probe.answer("list")
        try probe.set("list/a", "3")
        #expect(probe.lastEvents(1) == ["moved a after b", "changed a after b 3", #"value {"a":3,"b":2}"#])
    }
}
