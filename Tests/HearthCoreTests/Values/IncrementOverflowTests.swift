import HearthCore
import Testing

/// Increments whose sum no number can hold: Firebase's arithmetic keeps integers exact while they fit and falls
/// back to a double sum, but a sum past ±1.8e308 is infinity, which no value may store.
@Suite struct IncrementOverflowTests {
    /// Integers add exactly, overflow into a double sum, and mixed operands add as doubles.
    @Test(arguments: [
        (LeafValue.int(5), LeafValue.int(2), LeafValue.int(7)),
        (.int(Int64.max), .int(1), .double(9_223_372_036_854_775_808.0)),
        (.int(Int64.min), .int(-1), .double(-9_223_372_036_854_775_809.0)),
        (.int(1), .double(0.5), .double(1.5)),
        (.double(1e308), .double(-1e308), .double(0)),
        (.double(Double.greatestFiniteMagnitude), .int(Int64.max), .double(Double.greatestFiniteMagnitude)),
        (.string("x"), .int(3), .int(3)),
    ])
    func representableSumsAreTheSumFirebaseGives(_ current: LeafValue, _ delta: LeafValue, _ sum: LeafValue) {
        #expect(WriteValue.increment(current, by: delta) == sum)
    }

    /// A double sum past the largest finite number, either way, is refused (a sum that rounds back to it is not).
    @Test(arguments: [
        (LeafValue.double(1e308), LeafValue.double(1e308)),
        (.double(-1e308), .double(-1e308)),
        (.double(Double.greatestFiniteMagnitude), .double(Double.greatestFiniteMagnitude / 1e15)),
        (.double(-1.7e308), .double(-1e308)),
    ])
    func sumsPastTheLargestNumberAreRefused(_ current: LeafValue, _ delta: LeafValue) {
        #expect(WriteValue.increment(current, by: delta) == nil)
    }

    /// A write names the location of its first unrepresentable increment, values and priorities alike, and
    /// resolving it anyway never stores infinity: the value stays as it was.
    @Test func aWriteNamesItsUnrepresentableIncrementAndNeverStoresInfinity() throws {
        let existing = try WriteValue.parseWrite(
            Array(#"{"a":1,"b":1e308,"c":{".value":1,".priority":1e308}}"#.utf8), depth: 1
        ).node
        let write = try WriteValue.parseWrite(
            Array(#"{"a":{".sv":{"increment":1}},"b":{".sv":{"increment":1e308}}}"#.utf8), depth: 1)
        #expect(write.unrepresentableIncrement(existing: existing) == Path(keys: [Key(unchecked: "b")]))
        #expect(write.resolved(existing: existing, now: 0).child(Key(unchecked: "b")).leafValue == .double(1e308))
        let priority = try WriteValue.parseWrite(
            Array(#"{"c":{".value":1,".priority":{".sv":{"increment":1e308}}}}"#.utf8), depth: 1)
        #expect(priority.unrepresentableIncrement(existing: existing) == Path(keys: [Key(unchecked: "c")]))
        let fits = try WriteValue.parseWrite(Array(#"{"a":{".sv":{"increment":1}}}"#.utf8), depth: 1)
        #expect(fits.unrepresentableIncrement(existing: existing) == nil)
    }
}
