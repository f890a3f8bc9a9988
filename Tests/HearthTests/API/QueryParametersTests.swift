import HearthCore
import Testing

@testable import Hearth

/// Firebase's checks of query method chains, with its messages.
@Suite struct QueryParametersTests {
    private func message(_ body: () throws -> QueryParameters) -> String? {
        do {
            _ = try body()
            return nil
        } catch let error as DatabaseValueError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    @Test func buildsTheSpecTheServerShares() throws {
        let parameters = try QueryParameters()
            .ordered(by: .child(Path(keys: [Key(unchecked: "stars")])))
            .starting(3, childKey: nil, inclusive: true, method: "queryStarting(atValue:)")
            .limited(10, anchor: .last)
        let expected = try QuerySpec(
            index: .child(Path(keys: [Key(unchecked: "stars")])), start: QueryBound(.int(3)), limit: .last(10))
        #expect(parameters.spec == expected)
        let after = try QueryParameters().ordered(by: .value)
            .starting(3, childKey: nil, inclusive: false, method: "queryStarting(afterValue:)")
        // After every child whose value is 3: from the sentinel name above any key (a bound at a sentinel is inclusive).
        #expect(after.spec.start == QueryBound(.int(3), name: Key.maxName, inclusive: true))
        let equal = try QueryParameters().ordered(by: .key).equal(to: "b", childKey: nil)
        #expect(equal.spec.start == equal.spec.end)
    }

    @Test func refusesWhatFirebaseRefuses() {
        let base = QueryParameters()
        #expect(
            self.message { try base.ordered(by: .key).ordered(by: .value) }
                == "Cannot use multiple queryOrderedBy calls!")
        #expect(
            self.message { try base.limited(1, anchor: .first).limited(2, anchor: .last) }
                == "Can't call queryLimited(toLast:) if a limit was previously set")
        #expect(self.message { try base.limited(0, anchor: .first) } == "Limit can't be zero")
        #expect(self.message { try base.limited(1 << 31, anchor: .first) } == "Limit must be less than 2,147,483,648")
        #expect(
            self.message {
                try base.starting(1, childKey: nil, inclusive: true, method: "a").starting(
                    2, childKey: nil, inclusive: true, method: "queryStarting(atValue:)")
            }?.hasPrefix("Can't call queryStarting(atValue:) after") == true)
        #expect(
            self.message {
                try base.ending(1, childKey: nil, inclusive: true, method: "e").equal(to: 1, childKey: nil)
            }?.hasPrefix("Can't call queryEqual(toValue:) after") == true)
        #expect(
            self.message { try base.ordered(by: .key).starting(1, childKey: nil, inclusive: true, method: "s") } != nil)
        #expect(
            self.message { try base.ordered(by: .key).starting("a", childKey: "k", inclusive: true, method: "s") }
                != nil)
        #expect(self.message { try base.starting(true, childKey: nil, inclusive: true, method: "s") } != nil)
        #expect(self.message { try base.starting([1], childKey: nil, inclusive: true, method: "s") } != nil)
        #expect(self.message { try base.starting("a", childKey: "bad.key", inclusive: true, method: "s") } != nil)
    }

    @Test func anOrderingMayFollowItsBoundsAndIsCheckedAgainstThem() {
        let bounded = try? QueryParameters().starting(1, childKey: nil, inclusive: true, method: "s")
        #expect(bounded != nil)
        #expect(self.message { try #require(bounded).ordered(by: .key) } != nil)
        #expect(self.message { try #require(bounded).ordered(by: .value) } == nil)
    }
}
