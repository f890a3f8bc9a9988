import HearthCore
import HearthTestKit
import HearthWire
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// A write that names its origin is applied once by a cluster however often it is sent: to another node after its
/// shard's leader stopped (an outcome a client cannot know), and to that node once it restarted and caught up.
@Suite(.serialized) struct ReplicatedWriteOriginTests {
    static let router = ShardRouter(shardCount: 4, shardDepth: 2)

    @Test(.timeLimit(.minutes(2))) func namedWritesApplyOnceAcrossAFailoverAndARestart() async throws {
        try await InProcessCluster.with(router: Self.router) { (members) async throws in
            #expect(await eventually(seconds: 30) { members.allSatisfy { $0.database?.notReadyReason == nil } })
            let star = try Path(validating: "/posts/p1/stars")
            let post = try Path(validating: "/posts/p2/stars")
            let user = try #require(
                (0..<64).lazy.map { try? Path(validating: "/user-posts/u\($0)/p2/stars") }.first { path in
                    guard let path else { return false }
                    return Self.router.shard(namespace: "default", path: path)
                        != Self.router.shard(namespace: "default", path: post)
                } ?? nil)
            let increment = try Fixture.value(#"{".sv":{"increment":1}}"#)
            let single = [Mutation.set(star, increment)]
            let update = [Mutation.set(post, increment), .set(user, increment)]
            let first = try WriteOrigin(client: "app", sequence: 1, settledBelow: 1)
            let second = try WriteOrigin(client: "app", sequence: 2, settledBelow: 1)
            let send = { (group: [InProcessCluster.Member]) async in
                let starred = await InProcessCluster.write(
                    single, members: group, retryingUnconfirmed: true, origin: first)
                let updated = await InProcessCluster.write(
                    update, members: group, retryingUnconfirmed: true, origin: second)
                return starred && updated
            }
            let once = { (group: [InProcessCluster.Member]) async in
                await eventually(seconds: 30) {
                    group.allSatisfy { member in
                        [star, post, user].allSatisfy { (try? member.value($0.description)) == Node(.int(1)) }
                    }
                }
            }
            #expect(await send(members))
            #expect(await send(members))
            #expect(await once(members))

            let leader = try await InProcessCluster.leader(
                of: try #require(Self.router.shard(namespace: "default", path: star)), among: members)
            await leader.close()
            let others = members.filter { $0.id != leader.id }
            #expect(await send(others))
            #expect(await once(others))

            try await leader.open()
            #expect(await once(members))
            #expect(await send([leader]))
            #expect(await once(members))
        }
    }
}
