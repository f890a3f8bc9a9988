import Foundation
import HearthCore
import HearthRules
import HearthStorage
import HearthSystem
import HearthTestKit
import HearthWire
import Synchronization
import Testing

@testable import HearthDatabase
@testable import HearthFrontEnds
@testable import HearthNet
@testable import HearthNode
@testable import HearthServer

/// A single node's write loop: its shards run on the loop's thread, it decides the writes handed to it in its turns,
/// and it answers each once it is durable and shown, keeping each connection's order across writes it cannot decide
/// at once.
@Suite struct WriteLoopTests {
    /// Records the paths of the changes the view tells, in order.
    final class Recorder: ChangeListener {
        let namespace = "default"
        let path = Path.root
        let heard = Mutex<[Path]>([])

        func changed(_ change: CommittedChange) {
            self.heard.withLock { $0 += change.mutations.map(\.path) }
        }
    }

    /// Hands `writes` to the loop as one batch of `connection` and waits for the answers.
    private static func submit(_ database: Database, connection: UInt64 = 1, _ writes: [LoopWrite]) async
        -> [WriteBatch.Answer]
    {
        await withCheckedContinuation { continuation in
            database.writes.submit(connection: connection, writes) { continuation.resume(returning: $0) }
        }
    }

    private static func write(
        _ mutations: [Mutation], conditions: [WriteCondition] = [], origin: WriteOrigin? = nil
    ) -> LoopWrite {
        LoopWrite(namespace: "default", mutations: mutations, conditions: conditions, now: 1, origin: origin)
    }

    private static func isCommitted(_ answer: WriteBatch.Answer) -> Bool {
        if case .success(.committed) = answer { return true }
        return false
    }

    /// Two keys under `/posts` in different shards.
    private static func keys(_ database: Database) throws -> (String, String) {
        let keys = try #require(
            Fixture.keys("p", under: Fixture.path("posts"), router: database.coordinator.router, shards: [0, 1]))
        return (keys[0], keys[1])
    }

    /// A turn's answers are given inside one `FlushBatch`: the acknowledgements and replies they send reach each
    /// reactor in one hand-off for the whole turn, not one per write.
    @Test func aTurnsAnswersAreGivenInsideOneFlushBatch() async throws {
        try await Database.withFresh { database in
            let write = Self.write([try Fixture.set("a", "1")])
            let gathered = await withCheckedContinuation { continuation in
                database.writes.submit(connection: 1, [write]) { answers in
                    continuation.resume(returning: answers.allSatisfy(Self.isCommitted) && FlushBatch.current != nil)
                }
            }
            #expect(gathered)
        }
    }

    /// A write across two shards answered as an acknowledgement (`submitAcknowledged`) commits and is shown as the
    /// same write answered with its mutations, whose answer holds them as resolved, joined in apply order; the
    /// acknowledgement's holds none.
    @Test func anAcknowledgedWriteCommitsAndIsAnsweredWithoutItsMutations() async throws {
        try await Database.withFresh { database in
            let (a, b) = try Self.keys(database)
            let write = Self.write([
                try Fixture.set("posts/\(b)/n", #"{".sv":{"increment":2}}"#),
                try Fixture.set("posts/\(a)/n", #"{".sv":{"increment":3}}"#),
            ])
            let answered = await withCheckedContinuation { continuation in
                database.writes.submit(connection: 1, write) { continuation.resume(returning: $0) }
            }
            let acknowledged = await withCheckedContinuation { continuation in
                database.writes.submitAcknowledged(connection: 2, write, tag: 7) { tag, answer in
                    #expect(tag == 7)
                    continuation.resume(returning: (answer, database.view.root("default")))
                }
            }
            guard case .success(.committed(let resolved)) = answered,
                case .success(.committed(let none)) = acknowledged.0
            else {
                Issue.record("answered \(answered), acknowledged \(acknowledged.0)")
                return
            }
            #expect(none.isEmpty)
            #expect(
                resolved.map(\.path)
                    == [a, b].sorted { Key(unchecked: $0) < Key(unchecked: $1) }.map {
                        Fixture.path("posts/\($0)/n")
                    })
            #expect(acknowledged.1.node(at: Fixture.path("posts/\(a)/n")) == Node(.int(6)))
            #expect(acknowledged.1.node(at: Fixture.path("posts/\(b)/n")) == Node(.int(4)))
        }
    }

    /// The shards' commands run on the loop's thread, and a command queued after a batch finds the batch's writes
    /// applied.
    @Test func jobsAndBatchesRunInTheOrderTheyWereQueued() async throws {
        try await Database.withFresh { database in
            let (a, _) = try Self.keys(database)
            let shard = database.coordinator.router.shards(
                namespace: "default", mutation: Fixture.path("posts/\(a)/n"))
            let index = try #require(shard.first)
            let before = await database.writes.shards[index].state.lastIndex
            let answered = Mutex(false)
            database.writes.submit(connection: 1, [Self.write([try Fixture.set("posts/\(a)/n", "1")])]) { _ in
                answered.withLock { $0 = true }
            }
            let after = await database.writes.shards[index].state.lastIndex
            #expect(after == before + 1)
            let isLoopThread = await database.writes.shards[index].runsOnLoop(database.writes.loop)
            #expect(isLoopThread)
        }
    }

    /// A batch's writes inside one shard and across two are committed, and shown in the view when the answers come.
    @Test func committedWritesAreVisibleWhenTheBatchIsAnswered() async throws {
        try await Database.withFresh { database in
            let (a, b) = try Self.keys(database)
            let writes = [
                Self.write([try Fixture.set("posts/\(a)/title", #""Hi""#)]),
                Self.write([
                    try Fixture.set("posts/\(a)/n", #"{".sv":{"increment":2}}"#),
                    try Fixture.set("posts/\(b)/n", #"{".sv":{"increment":2}}"#),
                ]),
            ]
            let seen = Mutex<[Node]>([])
            let answers = await withCheckedContinuation { continuation in
                database.writes.submit(connection: 1, writes) { answers in
                    let root = database.view.root("default")
                    seen.withLock {
                        $0 = [
                            root.node(at: Fixture.path("posts/\(a)/title")),
                            root.node(at: Fixture.path("posts/\(b)/n")),
                        ]
                    }
                    continuation.resume(returning: answers)
                }
            }
            #expect(answers.allSatisfy(Self.isCommitted))
            #expect(seen.withLock { $0 } == [Node(.string("Hi")), Node(.int(2))])
        }
    }

    /// Ten stars of one post decided in one turn are shown, once answered, with the shard's own node of the post:
    /// taken once, at the turn's end, and shared by the view and the shard.
    @Test func aTurnsWritesOfOnePostAreShownWithTheShardsOwnNode() async throws {
        try await Database.withFresh { database in
            let (a, _) = try Self.keys(database)
            let writes = try (0..<10).map { user in
                Self.write([
                    try Fixture.set("posts/\(a)/stars/u\(user)", "true"),
                    try Fixture.set("posts/\(a)/starCount", #"{".sv":{"increment":1}}"#),
                ])
            }
            let answers = await Self.submit(database, writes)
            #expect(answers.allSatisfy(Self.isCommitted))
            let post = Fixture.path("posts/\(a)")
            let index = try #require(database.coordinator.router.shards(namespace: "default", mutation: post).first)
            let held = await database.writes.shards[index].state.node(namespace: "default", at: post)
            let shown = database.view.root("default").node(at: post)
            #expect(shown.isIdentical(to: held))
            #expect(shown.node(at: Fixture.path("starCount")) == Node(.int(10)))
            #expect(shown.node(at: Fixture.path("stars")).childCount == 10)
        }
    }

    /// A compare-and-set that fails is answered stale with the value it lost to; a write sent again with the same
    /// origin is answered committed and applied once; an increment that would overflow is refused with nothing
    /// written, while the batch's other writes commit.
    @Test func staleDuplicateAndOverflowingWritesAreAnsweredAsTheAsyncPathAnswersThem() async throws {
        try await Database.withFresh { database in
            let (a, _) = try Self.keys(database)
            let origin = try WriteOrigin(client: "s", sequence: 1, settledBelow: 0)
            let increment = try Fixture.set("posts/\(a)/n", #"{".sv":{"increment":1}}"#)
            _ = await Self.submit(
                database,
                [
                    Self.write([try Fixture.set("posts/\(a)/title", #""Old""#)]),
                    Self.write([try Fixture.set("posts/\(a)/big", "1.7e308")]),
                    Self.write([increment], origin: origin),
                ])
            let answers = await Self.submit(
                database,
                [
                    Self.write(
                        [try Fixture.set("posts/\(a)/title", #""New""#)],
                        conditions: [WriteCondition(path: Fixture.path("posts/\(a)/title"), expectedHash: "stale")]),
                    Self.write([increment], origin: origin),
                    Self.write([try Fixture.set("posts/\(a)/big", #"{".sv":{"increment":1e308}}"#)]),
                    Self.write([try Fixture.set("posts/\(a)/other", "true")]),
                ])
            guard case .success(.conditionFailed(let current)) = answers[0] else {
                Issue.record("the compare-and-set was answered \(answers[0])")
                return
            }
            #expect(current == Node(.string("Old")))
            #expect(Self.isCommitted(answers[1]))
            guard case .failure(let error) = answers[2] else {
                Issue.record("the overflowing increment was answered \(answers[2])")
                return
            }
            #expect(error is UnrepresentableIncrementError)
            #expect(Self.isCommitted(answers[3]))
            let root = database.view.root("default")
            #expect(root.node(at: Fixture.path("posts/\(a)/n")) == Node(.int(1)))
            #expect(root.node(at: Fixture.path("posts/\(a)/big")) == Node(.double(1.7e308)))
            #expect(root.node(at: Fixture.path("posts/\(a)/other")) == Node(.bool(true)))
        }
    }

    /// A write a prepared transaction holds back takes the async path, and the later writes of its connection
    /// follow it in order, even one the loop could have decided at once; another connection's write goes on.
    @Test func aConnectionsWritesKeepTheirOrderAcrossADetour() async throws {
        try await Database.withFresh { database in
            let (a, b) = try Self.keys(database)
            let recorder = Recorder()
            _ = database.view.addListener(recorder)
            let router = database.coordinator.router
            let held = TransactionID(rawValue: 5)
            let heldShard = try #require(
                router.shards(namespace: "default", mutation: Fixture.path("posts/\(a)")).first)
            let holding = ShardIntent(
                write: ShardWrite(namespace: "default", mutations: [try Fixture.set("posts/\(a)/n", "9")], now: 1),
                plan: ShardTransactionPlan(anchor: heldShard + 1, participants: [heldShard, heldShard + 1]))
            _ = try await database.writes.shards[heldShard].prepare(held, holding)
            let first = try Fixture.set("posts/\(a)/n", "1")
            let second = try Fixture.set("posts/\(a)/after", "2")
            let blocked = Mutex<[WriteBatch.Answer]?>(nil)
            database.writes.submit(connection: 1, [Self.write([first])]) { answers in
                blocked.withLock { $0 = answers }
            }
            let later = Mutex<[WriteBatch.Answer]?>(nil)
            database.writes.submit(connection: 1, [Self.write([second])]) { answers in
                later.withLock { $0 = answers }
            }
            let other = await Self.submit(database, connection: 2, [Self.write([try Fixture.set("posts/\(b)/x", "3")])])
            #expect(other.allSatisfy(Self.isCommitted), "another connection's write is not held back")
            #expect(blocked.withLock { $0 } == nil, "the held write waits for the prepared transaction")
            _ = try await database.writes.shards[heldShard].finish(held, commit: false)
            var answers: [WriteBatch.Answer]?
            for _ in 0..<500 where answers == nil {
                try await Task.sleep(for: .milliseconds(10))
                answers = later.withLock { $0 }
            }
            #expect(answers.map { $0.allSatisfy(Self.isCommitted) } == true)
            #expect(blocked.withLock { $0 }.map { $0.allSatisfy(Self.isCommitted) } == true)
            let heard = recorder.heard.withLock { $0 }
            let firstAt = try #require(heard.firstIndex(of: Fixture.path("posts/\(a)/n")))
            let secondAt = try #require(heard.firstIndex(of: Fixture.path("posts/\(a)/after")))
            #expect(firstAt < secondAt, "the connection's second write was applied after its first")
        }
    }

    /// A write whose rules read data that changed since it was checked is checked again on the newer data: allowed,
    /// it commits; refused there, it is answered as refused.
    @Test func aWriteWhoseRulesGuardWentStaleIsCheckedAgain() async throws {
        try await Database.withFresh { database in
            let access = AccessControl(database: database, authenticator: Authenticator(), defaultRules: .open)
            try await access.install(
                #"{"rules": {".read": true, "gate": {".write": true}, "x": {".write": "root.child('gate').val() != 7"}}}"#,
                namespace: "default")
            let gate = { (value: String) throws -> LoopWrite in Self.write([try Fixture.set("gate", value)]) }
            _ = await Self.submit(database, [try gate("1")])
            let allowedLater = try #require(
                try access.loopWrite(
                    .anonymous, namespace: "default", mutations: [try Fixture.set("x", "1")], condition: nil,
                    origin: nil))
            #expect(allowedLater.recheck != nil && allowedLater.conditions.count == 1)
            _ = await Self.submit(database, [try gate("2")])
            #expect(Self.isCommitted(await Self.submit(database, [allowedLater])[0]))
            #expect(database.view.root("default").node(at: Fixture.path("x")) == Node(.int(1)))
            let refusedLater = try #require(
                try access.loopWrite(
                    .anonymous, namespace: "default", mutations: [try Fixture.set("x", "2")], condition: nil,
                    origin: nil))
            _ = await Self.submit(database, [try gate("7")])
            guard case .failure(let error) = await Self.submit(database, [refusedLater])[0] else {
                Issue.record("the write was not refused on the newer data")
                return
            }
            #expect(error is AccessDeniedError)
            #expect(database.view.root("default").node(at: Fixture.path("x")) == Node(.int(1)))
        }
    }

    /// Once the log has failed (here: closed), the batch's writes are answered with its error, not left waiting.
    @Test func aFailedLogFailsTheBatchsWritesWithItsError() async throws {
        try await Database.withFresh { database in
            await database.log.close()
            let answers = await Self.submit(database, [Self.write([try Fixture.set("x", "1")])])
            guard case .failure(let error) = answers[0] else {
                Issue.record("the write was answered \(answers[0]) by a closed log")
                return
            }
            #expect(error is StorageError)
        }
    }
}

extension ShardActor {
    /// Whether this shard's commands run on `loop`'s thread.
    fileprivate func runsOnLoop(_ loop: WriteLoop) -> Bool { loop.isCurrent }
}
