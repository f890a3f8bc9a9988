import HearthCluster
import HearthCore
import HearthTestKit
import HearthWire
import Testing

@testable import HearthDatabase
@testable import HearthReplication
@testable import HearthServer

/// Transactions whose coordinator vanished mid-way are finished by the resolver on the participants' leaders, with
/// the decision the anchor holds — and a coordinator that comes back late finds its decision taken.
@Suite(.serialized) struct IntentResolverTests {
    typealias Member = InProcessCluster.Member
    static let router = ShardRouter(shardCount: 4, shardDepth: 2)

    /// Two shards led from anywhere, a path in each, and a plan with the higher as anchor.
    private static func transaction(_ members: [Member]) throws
        -> (participant: Int, anchor: Int, paths: [Path], plan: ShardTransactionPlan)
    {
        let router = Self.router
        var byShard: [Int: Path] = [:]
        for post in 0..<64 {
            let path = try Path(validating: "/posts/p\(post)/title")
            guard let shard = router.shard(namespace: "default", path: path) else { continue }
            byShard[shard] = byShard[shard] ?? path
        }
        let shards = byShard.keys.sorted()
        let (participant, anchor) = (shards[0], shards[shards.count - 1])
        let plan = ShardTransactionPlan(anchor: anchor, participants: [participant, anchor])
        return (participant, anchor, [byShard[participant], byShard[anchor]].compactMap { $0 }, plan)
    }

    /// Runs resolver passes on every member, each as if `resolveAfter` had passed since the one before, until no
    /// replica of `shard` holds the transaction's part (a pass finds nothing to do while the shard has no leader).
    private static func resolve(_ transaction: TransactionID, in shard: Int, _ members: [Member]) async -> Bool {
        var now = ContinuousClock.now
        return await eventually(seconds: 30) {
            for member in members { await member.database?.resolver.resolveOnce(now: now) }
            now += .seconds(60)
            for member in members {
                guard let database = member.database, await database.actors[shard].intents[transaction] == nil else {
                    return false
                }
            }
            return true
        }
    }

    private static func write(_ text: String, at path: Path) -> ShardWrite {
        ShardWrite(namespace: "default", mutations: [.set(path, WriteValue(node: Node(.string(text))))], now: 0)
    }

    @Test(.timeLimit(.minutes(1))) func aPartLeftPreparedIsAbortedAndALateDecisionIsRefused() async throws {
        try await InProcessCluster.with(router: Self.router) { (members) async throws in
            #expect(await eventually(seconds: 30) { members.allSatisfy { $0.database?.notReadyReason == nil } })
            let database = try #require(members[0].database)
            let shards = database.coordinator.shards
            let (participant, anchor, paths, plan) = try Self.transaction(members)
            let id = TransactionID(rawValue: 0xAB)
            guard
                case .prepared(let prepared) = try await shards.prepare(
                    shard: participant, id, ShardIntent(write: Self.write("lost", at: paths[0]), plan: plan),
                    readLockTerm: nil)
            else { throw TestClientError(description: "the part was not prepared") }
            try await database.log.waitUntilCommitted([prepared])
            // The coordinator is gone: the resolver aborts the transaction at the anchor and finishes the part.
            #expect(await Self.resolve(id, in: participant, members))
            // The coordinator comes back and tries to commit, however late: the anchor holds the abort for good.
            for member in members { await member.database?.coordinator.forgetFinishedDecisions() }
            let late = try await shards.decide(
                shard: anchor, id, commit: true, part: ShardIntent(write: Self.write("late", at: paths[1]), plan: plan),
                spineValues: [:], readLockTerm: nil)
            guard case .alreadyDecided(commit: false, _) = late else {
                Issue.record("a late decision was answered \(late)")
                return
            }
            // Nothing of it shows anywhere, and the paths take writes again.
            for member in members {
                #expect(try member.value(paths[0].description) == Node.empty)
                #expect(try member.value(paths[1].description) == Node.empty)
            }
            _ = try await database.coordinator.write(
                namespace: "default", mutations: [.set(paths[0], WriteValue(node: Node(.string("free"))))],
                conditions: [], now: 0)
        }
    }

    @Test(.timeLimit(.minutes(1))) func aDecidedTransactionIsFinishedWithItsDecisionAndForgotten() async throws {
        try await InProcessCluster.with(router: Self.router) { (members) async throws in
            #expect(await eventually(seconds: 30) { members.allSatisfy { $0.database?.notReadyReason == nil } })
            let database = try #require(members[1].database)
            let shards = database.coordinator.shards
            let (participant, anchor, paths, plan) = try Self.transaction(members)
            let id = TransactionID(rawValue: 0xCD)
            // The test plays the coordinator: it claims the transaction until it has decided.
            database.coordinator.running.begin(id)
            guard
                case .prepared(let prepared) = try await shards.prepare(
                    shard: participant, id, ShardIntent(write: Self.write("a", at: paths[0]), plan: plan),
                    readLockTerm: nil)
            else { throw TestClientError(description: "the part was not prepared") }
            try await database.log.waitUntilCommitted([prepared])
            let decided = try await shards.decide(
                shard: anchor, id, commit: true, part: ShardIntent(write: Self.write("b", at: paths[1]), plan: plan),
                spineValues: [:], readLockTerm: nil)
            guard case .logged(let decision, _) = decided else {
                Issue.record("the decision was answered \(decided)")
                return
            }
            try await database.log.waitUntilCommitted([decision])
            database.coordinator.running.end(id)
            // The coordinator vanished before finishing the participant: the resolver finishes it with commit.
            #expect(await Self.resolve(id, in: participant, members))
            #expect(
                await eventually(seconds: 30) {
                    members.allSatisfy { member in
                        (try? member.value(paths[0].description)) == Node(.string("a"))
                            && (try? member.value(paths[1].description)) == Node(.string("b"))
                    }
                })
            // Every part finished: the anchor forgets the decision, on every replica.
            #expect(
                await eventually(seconds: 30) {
                    for member in members { await member.database?.coordinator.forgetFinishedDecisions() }
                    for member in members {
                        guard let database = member.database, await database.actors[anchor].decisions[id] == nil else {
                            return false
                        }
                    }
                    return true
                })
        }
    }

    /// Whether any replica of `shard` still holds the transaction's part.
    private static func isPrepared(_ transaction: TransactionID, in shard: Int, _ members: [Member]) async -> Bool {
        for member in members where await member.database?.actors[shard].intents[transaction] != nil { return true }
        return false
    }

    /// A part whose transaction no coordinator runs any more is resolved as soon as the coordinators say so, long
    /// before `resolveAfter`; one a coordinator still runs is left to it.
    @Test(.timeLimit(.minutes(1))) func aPartNoCoordinatorClaimsIsResolvedAtOnce() async throws {
        try await InProcessCluster.with(router: Self.router) { (members) async throws in
            #expect(await eventually(seconds: 30) { members.allSatisfy { $0.database?.notReadyReason == nil } })
            let database = try #require(members[2].database)
            let (participant, _, paths, plan) = try Self.transaction(members)
            let id = TransactionID(rawValue: 0x5A)
            database.coordinator.running.begin(id)
            guard
                case .prepared(let prepared) = try await database.coordinator.shards.prepare(
                    shard: participant, id, ShardIntent(write: Self.write("held", at: paths[0]), plan: plan),
                    readLockTerm: nil)
            else { throw TestClientError(description: "the part was not prepared") }
            try await database.log.waitUntilCommitted([prepared])
            // Claimed: every resolver asks and leaves it, pass after pass.
            try await Task.sleep(for: .seconds(1))
            #expect(await Self.isPrepared(id, in: participant, members))
            // The coordinator gives up without finishing (its answers lost): resolved within a few passes, well
            // before `resolveAfter` (10 s).
            database.coordinator.running.end(id)
            let started = ContinuousClock.now
            #expect(await eventually(seconds: 30) { await !Self.isPrepared(id, in: participant, members) })
            #expect(ContinuousClock.now - started < .seconds(5))
            #expect(try members[0].value(paths[0].description) == Node.empty)
        }
    }

    @Test(.timeLimit(.minutes(1))) func aReadLockLeftByAVanishedCoordinatorExpires() async throws {
        try await InProcessCluster.with(router: Self.router) { (members) async throws in
            #expect(await eventually(seconds: 30) { members.allSatisfy { $0.database?.notReadyReason == nil } })
            let database = try #require(members[2].database)
            let shards = database.coordinator.shards
            let (participant, _, paths, plan) = try Self.transaction(members)
            let id = TransactionID(rawValue: 0xEF)
            let read = try await shards.lock(shard: participant, id, namespace: "default", paths: [paths[0]])
            let now = ContinuousClock.now
            for member in members { await member.database?.resolver.resolveOnce(now: now + .seconds(60)) }
            // A write to the locked path goes through once the lock expired …
            _ = try await database.coordinator.write(
                namespace: "default", mutations: [.set(paths[0], WriteValue(node: Node(.string("other"))))],
                conditions: [], now: 0)
            // … and the transaction that read under it cannot go on.
            await #expect(throws: ShardReadLockLostError.self) {
                _ = try await shards.prepare(
                    shard: participant, id, ShardIntent(write: Self.write("stale", at: paths[0]), plan: plan),
                    readLockTerm: read.term)
            }
        }
    }
}
