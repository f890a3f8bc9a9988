import Foundation
import HearthCluster
import HearthCore
import HearthTestKit
import Synchronization
import Testing

@testable import HearthDatabase
@testable import HearthReplication
@testable import HearthServer

/// Members joining and leaving a running in-process cluster while writes go on: every group's replica set moves to
/// the placement the member list gives, the newcomer catches up (by snapshot, the logs having been compacted), the
/// member list survives restarts, and nothing acknowledged is lost.
@Suite(.serialized) struct ClusterMembershipChangeTests {
    static let router = ShardRouter(shardCount: 4, shardDepth: 2)
    /// Small enough that every shard is snapshotted and its log compacted before the fourth node joins.
    static let snapshots = ShardSnapshotPolicy(entries: 8, retentionInterval: .milliseconds(200))

    typealias Member = InProcessCluster.Member

    /// Writes `/items/k<i>` one after another through `members` until stopped, remembering what was acknowledged.
    final class Writer: Sendable {
        let acknowledged = Mutex<[Int]>([])
        let members = Mutex<[Member]>([])
        private let stopped = Atomic(false)
        private let task = Mutex<Task<Void, Never>?>(nil)

        init(through members: [Member]) {
            self.members.withLock { $0 = members }
        }

        func start(from first: Int) {
            let task = Task {
                var next = first
                while !self.stopped.load(ordering: .relaxed) {
                    let members = self.members.withLock { $0 }
                    if (try? await InProcessCluster.write(
                        next, at: "/items/k\(next)", members: members)) == true
                    {
                        self.acknowledged.withLock { $0.append(next) }
                    }
                    next += 1
                    try? await Task.sleep(for: .milliseconds(5))
                }
            }
            self.task.withLock { $0 = task }
        }

        func stop() async {
            self.stopped.store(true, ordering: .relaxed)
            await self.task.withLock { $0 }?.value
        }
    }

    /// Whether every group's leader has committed exactly the replica set the list gives it, and every member in
    /// `members` has applied a list with the same members.
    static func hasConverged(_ members: [Member], to expected: Set<NodeID>) -> Bool {
        let databases = members.compactMap(\.database)
        guard databases.count == members.count,
            databases.allSatisfy({ Set($0.directory.list.members.map(\.id)) == expected })
        else { return false }
        let targets = databases[0].directory.list.targets(shardCount: Self.router.shardCount)
        return targets.allSatisfy { group, target in
            databases.contains { database in
                guard let host = database.service.host(group), host.softState.role == .leader else { return false }
                return host.committedMembership == target && host.membership == target
            }
        }
    }

    /// Whether every acknowledged item reads back on each of `members`.
    static func holdsEverything(_ members: [Member], _ acknowledged: [Int]) -> Bool {
        members.allSatisfy { member in
            acknowledged.allSatisfy { (try? member.value("/items/k\($0)")) == Node(.int(Int64($0))) }
        }
    }

    @Test(.timeLimit(.minutes(3))) func aNodeJoinsThenAnotherLeavesWhileWritesGoOn() async throws {
        try await InProcessCluster.with(router: Self.router, snapshots: Self.snapshots) { (members) async throws in
            #expect(await eventually(seconds: 30) { members.allSatisfy { $0.database?.notReadyReason == nil } })
            for item in 0..<80 {
                #expect(try await InProcessCluster.write(item, at: "/items/k\(item)", members: members))
            }
            // Every shard's log is compacted: the newcomer can only catch up by snapshot.
            #expect(
                await eventually(seconds: 30) {
                    (0..<4).allSatisfy { shard in
                        members.allSatisfy {
                            ($0.database?.service.host(RaftGroupID(UInt32(shard)))?.snapshotCut.index ?? 0) > 0
                        }
                    }
                })
            // Writes go through n3, which neither restarts nor leaves.
            let writer = Writer(through: [members[2]])
            writer.start(from: 1_000)
            let n4 = try await InProcessCluster.join("n4", httpPort: 4, to: members)
            var everyone = members + [n4]
            do {
                #expect(await eventually(seconds: 60) { Self.hasConverged(everyone, to: ["n1", "n2", "n3", "n4"]) })
                #expect(await eventually(seconds: 30) { n4.database?.notReadyReason == nil })
                #expect(await eventually(seconds: 30) { Self.holdsEverything([n4], Array(0..<80)) })
                let placement = try #require(n4.database?.directory.list.placement(shardCount: 4))
                #expect(!placement.shards(replicatedOn: "n4").isEmpty)

                // The newcomer and a founding member both know the new list after a restart.
                await n4.close()
                try await n4.open()
                await members[0].close()
                try await members[0].open()
                #expect(members[0].database?.directory.list.active == ["n1", "n2", "n3", "n4"])
                #expect(n4.database?.directory.list.active == ["n1", "n2", "n3", "n4"])
                #expect(await eventually(seconds: 30) { everyone.allSatisfy { $0.database?.notReadyReason == nil } })

                // n2 leaves: its replicas move to the others, then the list removes it and it stops serving.
                let outcome = await InProcessCluster.changeMembers(.leave("n2"), members: everyone)
                #expect(outcome == .changed)
                let remaining = [members[0], members[2], n4]
                #expect(await eventually(seconds: 60) { Self.hasConverged(remaining, to: ["n1", "n3", "n4"]) })
                #expect(remaining.allSatisfy { $0.database?.directory.list.removed["n2"] != nil })
                #expect(
                    await eventually(seconds: 30) {
                        members[1].database?.notReadyReason?.contains("was removed from the cluster") == true
                    })
                #expect(await eventually(seconds: 30) { remaining.allSatisfy { $0.database?.notReadyReason == nil } })
                everyone = remaining

                await writer.stop()
                let acknowledged = writer.acknowledged.withLock { $0 } + Array(0..<80)
                #expect(acknowledged.count > 80)
                #expect(await eventually(seconds: 30) { Self.holdsEverything(remaining, acknowledged) })
            } catch {
                await writer.stop()
                await n4.stop()
                throw error
            }
            await n4.stop()
        }
    }

    /// A removal that would leave fewer members than the replication factor is refused, with what to do.
    @Test(.timeLimit(.minutes(1))) func aRemovalBelowTheReplicationFactorIsRefused() async throws {
        try await InProcessCluster.with(router: Self.router) { (members) async throws in
            #expect(await eventually(seconds: 30) { members.allSatisfy { $0.database?.notReadyReason == nil } })
            let outcome = await InProcessCluster.changeMembers(.leave("n3"), members: members)
            guard case .refused(let message)? = outcome else {
                Issue.record("the removal was not refused: \(String(describing: outcome))")
                return
            }
            #expect(message.contains("add a member first"))
            #expect(members.allSatisfy { $0.database?.directory.list.active == ["n1", "n2", "n3"] })
        }
    }
}
