import HearthCore
import Testing

@testable import HearthReplication
@testable import HearthServer

/// The committed terms a shard's log keeps to answer writes waiting on compacted entries: runs of equal terms,
/// a floor below which nothing is known, a prefix for a snapshot, and a codec that refuses damaged runs.
@Suite struct CommittedTermsTests {
    @Test func termsAreKeptAsRunsAndLookedUpByIndex() {
        var terms = CommittedTerms()
        #expect(terms.term(at: 1) == nil)
        for index in 1...5 { terms.record(index: UInt64(index), term: 1) }
        for index in 6...9 { terms.record(index: UInt64(index), term: 3) }
        terms.record(index: 10, term: 4)
        terms.record(index: 4, term: 9)
        #expect(terms.runs.count == 3, "one run per term; an index already recorded is ignored")
        #expect(terms.term(at: 0) == nil)
        #expect(terms.term(at: 1) == 1)
        #expect(terms.term(at: 5) == 1)
        #expect(terms.term(at: 6) == 3)
        #expect(terms.term(at: 9) == 3)
        #expect(terms.term(at: 10) == 4)
        #expect(terms.term(at: 11) == nil)
    }

    @Test func aGapForgetsWhatCameBefore() {
        var terms = CommittedTerms()
        for index in 1...3 { terms.record(index: UInt64(index), term: 1) }
        terms.record(index: 8, term: 2)
        #expect(terms.floor == 8)
        #expect(terms.term(at: 2) == nil)
        #expect(terms.term(at: 8) == 2)
    }

    @Test func onlyTheNewestRunsAreKept() {
        var terms = CommittedTerms()
        for index in 1...(CommittedTerms.maximumRuns + 10) { terms.record(index: UInt64(index), term: UInt64(index)) }
        #expect(terms.runs.count == CommittedTerms.maximumRuns)
        #expect(terms.term(at: 10) == nil)
        #expect(terms.term(at: 11) == 11)
    }

    @Test func aPrefixEndsAtTheSnapshotIndex() {
        var terms = CommittedTerms()
        for index in 1...4 { terms.record(index: UInt64(index), term: 1) }
        for index in 5...9 { terms.record(index: UInt64(index), term: 2) }
        let prefix = terms.truncated(through: 4)
        #expect(prefix.last == 4)
        #expect(prefix.term(at: 4) == 1)
        #expect(prefix.term(at: 5) == nil)
        #expect(terms.truncated(through: 20) == terms)
        #expect(terms.truncated(through: 0).runs.isEmpty)
    }

    @Test func theCodecRoundTripsAndRefusesRunsOutOfOrder() throws {
        var terms = CommittedTerms()
        terms.record(index: 3, term: 1)
        terms.record(index: 4, term: 2)
        var bytes: [UInt8] = []
        terms.encode(to: &bytes)
        var reader = BinaryReader(bytes: bytes)
        #expect(try CommittedTerms(from: &reader) == terms)
        #expect(reader.isAtEnd)
        var damaged = bytes
        damaged[20] = 9
        var damagedReader = BinaryReader(bytes: damaged)
        #expect(throws: BinaryDecodingError.self) { try CommittedTerms(from: &damagedReader) }
    }
}
