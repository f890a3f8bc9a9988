import HearthFuzzTargets
import HearthTestKit
import Testing

/// Every input surface under a fixed budget of mutated inputs (seed 1, so a failure replays with
/// `scripts/fuzz <target> --seed 1 --index <i>`): no crash, no contract violation, no input over a second.
/// `scripts/fuzz` runs the same targets for millions of inputs.
@Suite struct FuzzTargetTests {
    /// Inputs per target here: a few seconds each in a release build.
    static let budget = 4_000

    private func expectClean(_ name: String, inputs: Int = Self.budget) throws {
        let target = try #require(FuzzTargets.named(name))
        let run = FuzzRun(target: target, seed: 1)
        let corpus = run.run(0..<target.corpus.count)
        #expect(corpus.accepted == target.corpus.count, "every valid input of \(name)'s corpus gets through")
        let outcome = run.run(target.corpus.count..<inputs)
        #expect(outcome.findings.isEmpty, "\(outcome.findings.prefix(3).map(\.description).joined(separator: "\n"))")
        #expect(outcome.accepted > 0, "some mutated inputs of \(name) still get through")
    }

    /// HTTP request heads and bodies, whole or in pieces, give the same events and never trap.
    @Test func http() throws { try self.expectClean("http") }

    /// REST targets and their query parameters are parsed or refused.
    @Test func query() throws { try self.expectClean("query") }

    /// Long-poll requests and their segments are reassembled or refused.
    @Test func longPoll() throws { try self.expectClean("long-poll") }

    /// WebSocket frames, whole or in pieces, give the same events and never trap.
    @Test func webSocket() throws { try self.expectClean("websocket") }

    /// Realtime messages are reassembled and decoded, and what decodes round-trips.
    @Test func realtime() throws { try self.expectClean("realtime") }

    /// JSON and write bodies round-trip through the writer.
    @Test func json() throws { try self.expectClean("json") }

    /// Rules documents are parsed or refused with a place in the text, and parsed ones decide requests.
    @Test func rules() throws { try self.expectClean("rules") }

    /// Rule expressions are parsed or refused with an offset, and parsed ones evaluate.
    @Test func ruleExpression() throws { try self.expectClean("rule-expression") }

    /// Rule regular expressions answer in linear time, whatever the pattern and subject.
    @Test func ruleRegex() throws { try self.expectClean("rule-regex") }

    /// Credentials authenticate or fail with a token error.
    @Test func token() throws { try self.expectClean("token") }

    /// Peer streams give the same frames whole or in pieces; hellos and payloads decode or are refused.
    @Test func peerFrames() throws { try self.expectClean("peer-frames") }

    /// Every peer frame kind's payload decodes or is refused, and what decodes round-trips.
    @Test func peerPayloads() throws { try self.expectClean("peer-payloads") }

    /// Playground questions are read or refused with a 400, and a draft's deciding rule is placed inside it.
    @Test func simulate() throws { try self.expectClean("simulate") }

    /// The fuzzer itself: an index always gives the same input, and indexes below the corpus give the corpus.
    @Test func inputsReplayFromSeedAndIndex() {
        let fuzzer = Fuzzer(corpus: [Array("abc".utf8), Array("12".utf8)], dictionary: [Array("tok".utf8)], seed: 9)
        #expect(fuzzer.input(0) == Array("abc".utf8))
        #expect(fuzzer.input(1) == Array("12".utf8))
        for index in 2..<500 {
            #expect(fuzzer.input(index) == fuzzer.input(index))
            #expect(fuzzer.input(index).count <= Fuzzer.maximumInputBytes)
        }
        #expect(Set((2..<500).map { fuzzer.input($0) }).count > 300, "mutations make mostly distinct inputs")
    }
}
