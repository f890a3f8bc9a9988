import HearthCore
import HearthWire
import Testing

@testable import Hearth

@Suite struct SyncEngineTransactionTests {
    /// Adds one to the number there (null counts as 0).
    private static let increment: TransactionUpdate = { current in
        guard case .int(let count)? = current.leafValue else { return .commit(WriteValue(node: Node(.int(1)))) }
        return .commit(WriteValue(node: Node(.int(count + 1))))
    }

    private func run(
        _ probe: inout EngineProbe, _ id: Int64, _ path: String, update: @escaping TransactionUpdate = increment,
        local: Bool = true
    ) throws {
        probe.record(
            probe.engine.runTransaction(
                TransactionID(id), at: try SyncFixtures.path(path), applyLocally: local, now: 0, update: update
            )
        )
    }

    /// The put the latest call sent, as (send id, data, hash).
    private func sentPut(_ probe: EngineProbe) throws -> (WriteID, JSONValue, String?) {
        for command in probe.last.commands {
            if case .write(let id, .put(_, let data, let hash, _)) = command { return (id, data, hash) }
        }
        Issue.record("expected a put among \(probe.last.commands)")
        throw SyncTestFailure.missing
    }

    /// A transaction shows its value at once, sends it with the hash it started from, and commits on ok.
    @Test func commitsOnOk() throws {
        var probe = EngineProbe()
        try probe.listen(1, "count", kinds: [.value])
        try probe.push("count", "4")
        try probe.answer("count")
        try self.run(&probe, 1, "count")
        #expect(probe.lastEvents(1) == ["value 5"])
        let (sendID, data, hash) = try self.sentPut(probe)
        #expect(data == .int(5))
        #expect(hash == SyncFixtures.int(4).hash)
        try probe.push("count", "5")
        probe.server(.writeAnswered(sendID, .okEmpty))
        #expect(probe.last.effects == [.transactionCompleted(TransactionID(1), .committed(SyncFixtures.int(5)))])
        #expect(probe.engine.writes.writes.isEmpty)
    }

    /// Started with nothing cached, it runs on null, listens to its location, and reruns on the server's value
    /// after `datastale`.
    @Test func rerunsOnStaleData() throws {
        var probe = EngineProbe()
        try self.run(&probe, 1, "count")
        #expect(
            probe.last.commands.first
                == .listen(ListenKey(path: try SyncFixtures.path("count"), query: nil, tag: nil), hash: ""))
        let (first, data, hash) = try self.sentPut(probe)
        #expect(data == .int(1))
        #expect(hash == "")
        try probe.push("count", "10")
        try probe.answer("count")
        probe.server(.writeAnswered(first, .failure(WireProtocolError(.dataStale, "stale"))))
        let (second, retried, retriedHash) = try self.sentPut(probe)
        #expect(retried == .int(11))
        #expect(retriedHash == SyncFixtures.int(10).hash)
        probe.server(.writeAnswered(second, .okEmpty))
        #expect(probe.last.effects.contains(.transactionCompleted(TransactionID(1), .committed(SyncFixtures.int(11)))))
        #expect(
            probe.last.commands == [.unlisten(ListenKey(path: try SyncFixtures.path("count"), query: nil, tag: nil))])
    }

    /// After 25 stale answers it gives up with `maxretry`, and its local value goes.
    @Test func failsAfterTwentyFiveRetries() throws {
        var probe = EngineProbe()
        try probe.listen(1, "count", kinds: [.value])
        try probe.answer("count")
        try self.run(&probe, 1, "count")
        for _ in 1..<SyncEngine.maximumTransactionRetries {
            let (id, _, _) = try self.sentPut(probe)
            probe.server(.writeAnswered(id, .failure(WireProtocolError(.dataStale, "stale"))))
        }
        let (last, _, _) = try self.sentPut(probe)
        probe.server(.writeAnswered(last, .failure(WireProtocolError(.dataStale, "stale"))))
        #expect(probe.last.effects.last == .transactionCompleted(TransactionID(1), .failed(SyncErrors.maxRetries)))
        #expect(probe.lastEvents(1) == ["value null"])
        #expect(!probe.last.commands.contains { if case .write = $0 { true } else { false } })
    }

    /// The update function's abort writes nothing and reports the value it saw.
    @Test func abortByTheUpdateFunction() throws {
        var probe = EngineProbe()
        try self.run(&probe, 1, "count", update: { _ in .abort })
        #expect(probe.last.effects == [.transactionCompleted(TransactionID(1), .aborted(.empty))])
        #expect(probe.engine.views.isEmpty)
        #expect(!probe.last.commands.contains { if case .write = $0 { true } else { false } })
    }

    /// A set at the location makes a waiting transaction fail with `set` at once, and one in flight fail when
    /// its stale answer comes.
    @Test func aSetOverridesTransactions() throws {
        var probe = EngineProbe()
        try self.run(&probe, 1, "count")
        let (sent, _, _) = try self.sentPut(probe)
        try self.run(&probe, 2, "count/child")
        #expect(!probe.last.commands.contains { if case .write = $0 { true } else { false } })
        try probe.set("count", "100")
        #expect(
            probe.last.effects.contains(.transactionCompleted(TransactionID(2), .failed(SyncErrors.overriddenBySet))))
        probe.server(.writeAnswered(sent, .failure(WireProtocolError(.dataStale, "stale"))))
        #expect(
            probe.last.effects.contains(.transactionCompleted(TransactionID(1), .failed(SyncErrors.overriddenBySet))))
        #expect(probe.engine.writes.writes.count == 1)
    }

    /// Transactions at one location queue: the second runs on the first's value and is sent after the first is
    /// answered.
    @Test func queuedTransactionsRunInOrder() throws {
        var probe = EngineProbe()
        try probe.listen(1, "count", kinds: [.value])
        try probe.push("count", "0")
        try probe.answer("count")
        try self.run(&probe, 1, "count")
        let (first, _, _) = try self.sentPut(probe)
        try self.run(&probe, 2, "count")
        #expect(probe.lastEvents(1) == ["value 2"])
        #expect(!probe.last.commands.contains { if case .write = $0 { true } else { false } })
        try probe.push("count", "1")
        probe.server(.writeAnswered(first, .okEmpty))
        #expect(probe.last.effects.contains(.transactionCompleted(TransactionID(1), .committed(SyncFixtures.int(1)))))
        let (second, data, hash) = try self.sentPut(probe)
        #expect(data == .int(2))
        #expect(hash == SyncFixtures.int(1).hash)
        try probe.push("count", "2")
        probe.server(.writeAnswered(second, .okEmpty))
        #expect(probe.last.effects.contains(.transactionCompleted(TransactionID(2), .committed(SyncFixtures.int(2)))))
    }

    /// With local events off, listeners see nothing until the server's data comes.
    @Test func withoutLocalEvents() throws {
        var probe = EngineProbe()
        try probe.listen(1, "count", kinds: [.value])
        try probe.push("count", "3")
        try probe.answer("count")
        try self.run(&probe, 1, "count", local: false)
        #expect(probe.lastEvents(1).isEmpty)
        let (_, data, _) = try self.sentPut(probe)
        #expect(data == .int(4))
    }

    /// A refusal other than stale data fails the transaction with the server's error.
    @Test func aRefusalFails() throws {
        var probe = EngineProbe()
        try self.run(&probe, 1, "count")
        let (sent, _, _) = try self.sentPut(probe)
        probe.server(.writeAnswered(sent, .failure(.permissionDeniedError)))
        #expect(probe.last.effects.contains(.transactionCompleted(TransactionID(1), .failed(.permissionDeniedError))))
        #expect(probe.engine.writes.writes.isEmpty)
    }
}

/// A test step that could not go on; the reason was already recorded.
enum SyncTestFailure: Error {
    case missing
}
