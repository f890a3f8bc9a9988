import HearthCore
import HearthWire
import Testing

@testable import Hearth

/// `purgeOutstandingWrites`: unconfirmed writes and transactions fail with `write_canceled`, their local events
/// are reverted and the connection forgets them.
@Suite struct SyncEnginePurgeTests {
    @Test func unconfirmedWritesAndTransactionsAreCancelledAndReverted() throws {
        var probe = EngineProbe()
        try probe.listen(1, "list")
        try probe.push("list", #"{"a": 1}"#)
        try probe.answer("list")
        let confirmed = try probe.set("list/b", "2")
        probe.server(.writeAnswered(confirmed, .okEmpty))
        try probe.push("list/b", "2")
        let pending = try probe.set("list/c", "3")
        probe.record(
            probe.engine.runTransaction(
                TransactionID(9), at: try SyncFixtures.path("list/a"), now: 0,
                update: { _ in .commit(WriteValue(node: Node(.int(7)))) }))
        #expect(probe.lastEvents(1) == ["changed a after - 7", #"value {"a":7,"b":2,"c":3}"#])

        probe.record(probe.engine.purgeWrites())
        #expect(probe.lastEvents(1) == ["removed c", "changed a after - 1", #"value {"a":1,"b":2}"#])
        #expect(probe.last.effects.contains(.writeCompleted(pending, SyncErrors.writeCanceled)))
        #expect(probe.last.effects.contains(.transactionCompleted(TransactionID(9), .failed(SyncErrors.writeCanceled))))
        #expect(!probe.last.effects.contains { if case .writeCompleted(confirmed, _) = $0 { true } else { false } })
        #expect(probe.last.commands == [.purgeWrites])
        #expect(probe.engine.writes.writes.isEmpty)
        #expect(probe.engine.transactions.isEmpty)
    }
}
