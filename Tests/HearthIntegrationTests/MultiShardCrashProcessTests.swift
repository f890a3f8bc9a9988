import Foundation
import HearthTestKit
import Synchronization
import Testing

/// A real `hearth serve` process SIGKILLed while multi-shard updates are in flight: after each restart every update
/// is all there or not there at all, and every acknowledged one is there.
@Suite(.serialized) struct MultiShardCrashProcessTests {
    /// Each update moves one unit between two accounts (different shards) and records itself in a ledger (a third
    /// path), atomically: after recovery, the ledger size, the credit and the debit must agree exactly.
    @Test func killedMidTransactionRecoversAllOrNothing() async throws {
        var random = SeededRandom(seed: 7)
        var server = try await ServerProcess()
        let acknowledged = Acknowledged()
        for round in 0..<3 {
            let killAfter = Int.random(in: 300...1200, using: &random)
            // Each round's crash comes once its load has committed 20 updates, however slowly a loaded machine does.
            let enough = acknowledged.all.count + 20
            await server.killDuringLoad(
                writers: 6, afterMilliseconds: killAfter, once: { acknowledged.all.count >= enough }
            ) { writer, sequence, client in
                let entry = "r\(round)w\(writer)s\(sequence)"
                let body =
                    #"{"acct/alice/balance":{".sv":{"increment":-1}},"#
                    + #""acct/bob/balance":{".sv":{"increment":1}},"ledger/\#(entry)":true}"#
                guard let response = try? client.request("PATCH", "/.json", body: body), response.status == 200 else {
                    return false
                }
                acknowledged.record(entry)
                return true
            }
            server = try await ServerProcess(dataDirectory: server.dataDirectory)
            let port = server.port
            let ledgerText = try await HTTPTestClient.request(port: port, "GET", "/ledger.json?shallow=true").text
            let ledger = try JSONSerialization.jsonObject(with: Data(ledgerText.utf8)) as? [String: Bool] ?? [:]
            let alice = Int(try await HTTPTestClient.request(port: port, "GET", "/acct/alice/balance.json").text) ?? 0
            let bob = Int(try await HTTPTestClient.request(port: port, "GET", "/acct/bob/balance.json").text) ?? 0
            #expect(bob == ledger.count, "round \(round): credit \(bob) but \(ledger.count) ledger entries")
            #expect(alice == -bob, "round \(round): debit \(alice) does not match credit \(bob)")
            let lost = acknowledged.all.subtracting(ledger.keys)
            #expect(lost.isEmpty, "round \(round): acknowledged but lost: \(lost.sorted().prefix(5))")
            #expect(acknowledged.all.count > 20, "round \(round): the load should have committed updates")
        }
        await server.stop()
    }
}

/// Ledger entries the server acknowledged, shared by the writer tasks.
private final class Acknowledged: Sendable {
    private let state = Mutex<Set<String>>([])
    func record(_ entry: String) { _ = self.state.withLock { $0.insert(entry) } }
    var all: Set<String> { self.state.withLock { $0 } }
}
