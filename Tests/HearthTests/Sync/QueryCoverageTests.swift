import HearthCore
import Testing

@testable import Hearth

@Suite struct QueryCoverageTests {
    @Test func aShorterLimitFromTheSameEndIsAnswered() throws {
        let four = try QuerySpec(index: .key, limit: .last(4))
        let two = try QuerySpec(index: .key, limit: .last(2))
        #expect(QueryCoverage.answers(two, from: four))
        #expect(!QueryCoverage.answers(four, from: two))
    }

    @Test func theOtherEndOrAnotherRangeIsNot() throws {
        let four = try QuerySpec(index: .key, limit: .last(4))
        #expect(!QueryCoverage.answers(try QuerySpec(index: .key, limit: .first(2)), from: four))
        let ranged = try QuerySpec(index: .key, start: QueryBound(.string("b")), limit: .last(2))
        #expect(!QueryCoverage.answers(ranged, from: four))
        #expect(!QueryCoverage.answers(try QuerySpec(index: .value, limit: .last(2)), from: four))
    }

    @Test func anUnlimitedRangeAnswersAnyLimitOverIt() throws {
        let range = try QuerySpec(index: .value, start: QueryBound(.int(3)))
        #expect(
            QueryCoverage.answers(
                try QuerySpec(index: .value, start: QueryBound(.int(3)), limit: .first(1)), from: range))
        #expect(!QueryCoverage.answers(.default, from: range))
    }
}
