import HearthCore
import Testing

@testable import Hearth

@Suite struct EventDiffTests {
    private func snapshot(_ json: String, query: QuerySpec = .default, complete: Bool = true) throws -> ViewSnapshot {
        let node = query.loadsAllData ? try SyncFixtures.node(json) : query.evaluate(try SyncFixtures.node(json))
        return ViewSnapshot(node: node, ordered: query.orderedChildren(node), isComplete: complete)
    }

    private func lines(_ events: [DataEvent]) -> [String] {
        events.map(EngineProbe.describe)
    }

    /// Firebase's order: removed, added, moved, changed, then value; previous keys from the new order.
    @Test func eventsComeInFirebasesOrder() throws {
        let query = try QuerySpec(index: .value)
        let old = try self.snapshot(#"{"a": 1, "b": 2, "c": 3}"#, query: query)
        let new = try self.snapshot(#"{"b": 2, "c": 9, "d": 0}"#, query: query)
        let events = EventDiff.events(from: old, to: new, path: .root, index: query.index)
        #expect(
            self.lines(events) == [
                "removed a",
                "added d after - 0",
                "moved c after b",
                "changed c after b 9",
                #"value {"b":2,"c":9,"d":0}"#,
            ]
        )
    }

    /// A child whose value changes under the key index changes but never moves.
    @Test func keyIndexNeverMoves() throws {
        let old = try self.snapshot(#"{"a": 1, "b": 2}"#)
        let new = try self.snapshot(#"{"a": 5, "b": 2}"#)
        let events = EventDiff.events(from: old, to: new, path: .root, index: .key)
        #expect(self.lines(events) == ["changed a after - 5", #"value {"a":5,"b":2}"#])
    }

    /// An incomplete view raises child events but no value; completing it raises value even with no change.
    @Test func valueOnlyOnceComplete() throws {
        let partial = try self.snapshot(#"{"a": 1}"#, complete: false)
        let events = EventDiff.events(from: .nothing, to: partial, path: .root, index: .priority)
        #expect(self.lines(events) == ["added a after - 1"])
        let complete = try self.snapshot(#"{"a": 1}"#)
        #expect(
            self.lines(EventDiff.events(from: partial, to: complete, path: .root, index: .priority)) == [
                #"value {"a":1}"#
            ])
        #expect(EventDiff.events(from: complete, to: complete, path: .root, index: .priority).isEmpty)
    }

    /// A leaf's value change raises value alone.
    @Test func leafChangeRaisesValue() throws {
        let events = EventDiff.events(
            from: try self.snapshot("1"),
            to: try self.snapshot("2"),
            path: try SyncFixtures.path("x"),
            index: .priority
        )
        #expect(self.lines(events) == ["value 2"])
    }
}
