import HearthCore
import HearthWire
import Testing

@testable import HearthServer

/// The ledger that keeps a write sent again after a reconnect from being applied twice.
@Suite struct WireWriteLedgerTests {
    private static let increment = WireRequest.put(
        path: "/likes", data: .object([".sv": .object(["increment": .int(1)])]), hash: nil)

    @Test func aClientKeepsItsIdentityAlongItsSessionChain() {
        let ledger = WireWriteLedger<Int>()
        let first = ledger.identity(ofSession: "s1", replacing: nil)
        #expect(first == "s1")
        #expect(ledger.identity(ofSession: "s2", replacing: "s1") == "s1")
        #expect(ledger.identity(ofSession: "s3", replacing: "s2") == "s1")
        #expect(ledger.identity(ofSession: "t1", replacing: "unknown") == "unknown")
        #expect(ledger.identity(ofSession: "u1", replacing: nil) == "u1")
    }

    @Test func onlyTheSameRequestUnderTheSameIdIsTheSameWrite() {
        let ledger = WireWriteLedger<Int>()
        let key = WireWriteLedger<Int>.Key(identity: "s1", requestID: 7)
        ledger.record(key, Self.increment, 42)
        #expect(ledger.earlier(key, Self.increment) == 42)
        #expect(ledger.earlier(key, .put(path: "/likes", data: .int(3), hash: nil)) == nil)
        #expect(ledger.earlier(.init(identity: "s1", requestID: 8), Self.increment) == nil)
        #expect(ledger.earlier(.init(identity: "s2", requestID: 7), Self.increment) == nil)
    }

    @Test func itForgetsTheOldestBeyondItsCapacity() {
        let ledger = WireWriteLedger<Int>(capacity: 3)
        for id in 1...2_000 {
            ledger.record(.init(identity: "c", requestID: Int64(id)), Self.increment, id)
        }
        #expect(ledger.earlier(.init(identity: "c", requestID: 1_997), Self.increment) == nil)
        #expect(ledger.earlier(.init(identity: "c", requestID: 1_998), Self.increment) == 1_998)
        #expect(ledger.earlier(.init(identity: "c", requestID: 2_000), Self.increment) == 2_000)
        for session in 1...2_000 { _ = ledger.identity(ofSession: "s\(session)", replacing: nil) }
        #expect(ledger.identity(ofSession: "n", replacing: "s1") == "s1")
        #expect(ledger.identity(ofSession: "m", replacing: "s2000") == "s2000")
    }
}
