import HearthCore
import HearthWire
import Testing

@testable import Hearth

/// A transaction's back-off after stale answers, and its wait for its location's data before the first send.
@Suite struct SyncEngineBackoffTests {
    private static let increment: TransactionUpdate = { current in
        guard case .int(let count)? = current.leafValue else { return .commit(WriteValue(node: Node(.int(1)))) }
        return .commit(WriteValue(node: Node(.int(count + 1))))
    }

    private static func puts(_ output: SyncOutput) -> [(WriteID, JSONValue, String?)] {
        output.commands.compactMap { command in
            if case .write(let id, .put(_, let data, let hash, _)) = command { return (id, data, hash) }
            return nil
        }
    }

    /// A connected probe whose `count` holds `value`, listened to and answered.
    private func probe(backoff: TransactionBackoff, seed: UInt64 = 7) throws -> EngineProbe {
        var probe = EngineProbe()
        probe.engine = SyncEngine(seed: seed)
        probe.engine.transactionBackoff = backoff
        probe.server(.connected(serverTimeOffsetMilliseconds: 0))
        try probe.listen(1, "count", kinds: [.value])
        try probe.push("count", "4")
        try probe.answer("count")
        return probe
    }

    /// After a stale answer nothing is sent until the drawn wait ends; the rerun then uses the value known at that
    /// moment, not the one known when the answer came.
    @Test func aStaleAnswerHoldsTheRerunUntilTheWaitEnds() throws {
        let backoff = TransactionBackoff(initialMilliseconds: 100, maximumMilliseconds: 1_000)
        var probe = try self.probe(backoff: backoff)
        probe.record(
            probe.engine.runTransaction(
                TransactionID(1), at: try SyncFixtures.path("count"), now: 1_000, update: Self.increment))
        let first = try #require(Self.puts(probe.last).first)
        try probe.push("count", "7")
        probe.record(
            probe.engine.handle(.writeAnswered(first.0, .failure(WireProtocolError(.dataStale, "s"))), now: 1_000))
        #expect(Self.puts(probe.last).isEmpty)
        var random = EngineRandom(seed: 7)
        let drawn = backoff.delay(afterStaleAnswers: 1, using: &random)
        try #require(drawn > 0, "seed 7 draws no wait; pick another seed")
        let wake = try #require(probe.engine.nextWake)
        #expect(wake == 1_000 + drawn)
        try probe.push("count", "9")
        #expect(Self.puts(probe.last).isEmpty)
        probe.record(probe.engine.tick(now: wake - 1))
        #expect(Self.puts(probe.last).isEmpty)
        probe.record(probe.engine.tick(now: wake))
        let second = try #require(Self.puts(probe.last).first)
        #expect(second.1 == .int(10))
        #expect(second.2 == SyncFixtures.int(9).hash)
        #expect(probe.engine.nextWake == nil)
    }

    /// The window doubles with each stale answer in a row, up to the maximum; every wait lies within it.
    @Test func theWindowDoublesUpToItsMaximum() {
        let backoff = TransactionBackoff(initialMilliseconds: 10, maximumMilliseconds: 1_000)
        #expect((1...9).map { backoff.window(afterStaleAnswers: $0) } == [10, 20, 40, 80, 160, 320, 640, 1_000, 1_000])
        #expect(TransactionBackoff.none.window(afterStaleAnswers: 5) == 0)
        var random = EngineRandom(seed: 3)
        for staleAnswers in 1...40 {
            let delay = backoff.delay(afterStaleAnswers: staleAnswers, using: &random)
            #expect((0...backoff.window(afterStaleAnswers: staleAnswers)).contains(delay))
        }
        var same = EngineRandom(seed: 3)
        var again = EngineRandom(seed: 3)
        #expect(same.next() == again.next())
    }

    /// Connected, a transaction on a location the client never received waits for its listen's answer and is
    /// first sent on the server's value: no send is wasted on a value the client does not know.
    @Test func aConnectedTransactionWaitsForItsLocationsData() throws {
        var probe = EngineProbe()
        probe.server(.connected(serverTimeOffsetMilliseconds: 0))
        probe.record(
            probe.engine.runTransaction(
                TransactionID(1), at: try SyncFixtures.path("count"), now: 0, update: Self.increment))
        #expect(Self.puts(probe.last).isEmpty)
        #expect(probe.last.commands.contains { if case .listen = $0 { true } else { false } })
        try probe.push("count", "41")
        #expect(Self.puts(probe.last).isEmpty)
        try probe.answer("count")
        let put = try #require(Self.puts(probe.last).first)
        #expect(put.1 == .int(42))
        #expect(put.2 == SyncFixtures.int(41).hash)
    }

    /// A refused listen does not hold the transaction: it is sent and the server decides.
    @Test func aRefusedListenLetsTheTransactionGo() throws {
        var probe = EngineProbe()
        probe.server(.connected(serverTimeOffsetMilliseconds: 0))
        let path = try SyncFixtures.path("count")
        probe.record(probe.engine.runTransaction(TransactionID(1), at: path, now: 0, update: Self.increment))
        probe.server(.listenAnswered(ListenKey(path: path, query: nil, tag: nil), .failure(.permissionDeniedError)))
        #expect(Self.puts(probe.last).count == 1)
    }
}
