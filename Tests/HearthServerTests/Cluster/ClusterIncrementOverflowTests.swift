import HearthCluster
import HearthCore
import HearthTestKit
import HearthWire
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// A multi-shard write across a cluster's shards (two-phase commit over Raft) whose increment no number can hold
/// is refused whole: no part of it is applied, on any shard, whichever node leads them.
@Suite(.serialized) struct ClusterIncrementOverflowTests {
    static let router = ShardRouter(shardCount: 4, shardDepth: 2)

    /// The coordinator's write fails (nothing is checked before it, so the shards decide) and both counters keep
    /// their values on every member.
    @Test(.timeLimit(.minutes(2))) func aTwoPhaseWriteWithAnUnrepresentableIncrementChangesNothing() async throws {
        let parent = Path(keys: [Key(unchecked: "counters")])
        let keys = try #require(Fixture.keys("c", under: parent, router: Self.router, shards: [1, 2]))
        let big = "counters/\(keys[0])"
        let small = "counters/\(keys[1])"
        try await InProcessCluster.with(router: Self.router) { members in
            #expect(
                await InProcessCluster.write(
                    [try Fixture.set(big, "1e308"), try Fixture.set(small, "1")], members: members,
                    retryingUnconfirmed: true))
            let increments = [
                try Fixture.set(small, #"{".sv":{"increment":1}}"#),
                try Fixture.set(big, #"{".sv":{"increment":1e308}}"#),
            ]
            var refusal: (any Error)?
            _ = await eventually(seconds: 30) {
                for member in members {
                    guard let database = member.database else { continue }
                    do {
                        _ = try await database.coordinator.write(
                            namespace: "default", mutations: increments, conditions: [], now: 0, origin: nil)
                        return true
                    } catch is ShardNotCommittedError {
                        return false
                    } catch let error as ShardCallError {
                        guard case .failed = error.kind else { return false }
                        refusal = error
                        return true
                    } catch {
                        refusal = error
                        return true
                    }
                }
                return false
            }
            #expect(refusal.map { "\($0)".contains("would overflow") } == true, "\(String(describing: refusal))")
            for member in members {
                let database = try #require(member.database)
                try await database.readBarrier(namespace: "default", path: .root)
                let root = database.view.root("default")
                #expect(root.node(at: Fixture.path(big)).leafValue == .double(1e308), "\(member.id.name)")
                #expect(root.node(at: Fixture.path(small)).leafValue == .int(1), "\(member.id.name)")
            }
        }
    }
}
