import HearthCore
import HearthWire
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// A spine increment resolves in the coordinator against the data it read under lock: one no number can hold fails
/// the write there, before anything is prepared.
@Suite struct TwoPhaseCommitIncrementTests {
    private static let router = ShardRouter(shardCount: 4, shardDepth: 2)

    /// The read of a 1e308 counter makes a further 1e308 increment fail, releasing every participant's lock.
    @Test func aSpineIncrementThatOverflowsFailsBeforeAnythingIsPrepared() throws {
        var machine = TwoPhaseCommit(
            transaction: TransactionID(rawValue: 5), namespace: "default",
            mutations: [try Fixture.set("n", #"{".sv":{"increment":1e308}}"#)], conditions: [], now: 0,
            router: Self.router)
        guard case .lockAndRead(let participants, let paths)? = machine.start().first else {
            Issue.record("a spine increment must read first")
            return
        }
        let stored = Node(.double(1e308))
        let nodes = Dictionary(uniqueKeysWithValues: participants.map { ($0, paths.map { _ in stored }) })
        let through = Dictionary(uniqueKeysWithValues: participants.map { ($0, UInt64(0)) })
        let directives = machine.onRead(nodes, through: through)
        guard case .unrepresentable(let released, let error)? = directives.first, directives.count == 1 else {
            Issue.record("the write went on: \(directives)")
            return
        }
        #expect(released == participants && error.path == Fixture.path("n"))
        #expect(machine.phase == .done)
    }
}
