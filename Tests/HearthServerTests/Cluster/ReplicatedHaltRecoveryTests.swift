import HearthCluster
import HearthCore
import HearthTestKit
import Testing

@testable import HearthDatabase
@testable import HearthReplication
@testable import HearthServer

/// A member whose log holds a committed entry it cannot decode restarts as it ran: that shard's replica is halted at
/// the entry, and the node and its other shards serve.
@Suite(.serialized) struct ReplicatedHaltRecoveryTests {
    static let router = ShardRouter(shardCount: 4, shardDepth: 2)

    /// A path of `shard`, or of any other shard when `other` is set.
    private static func path(shard: Int, other: Bool = false) throws -> String {
        for post in 0..<64 {
            let path = "/posts/p\(post)"
            let owner = Self.router.shard(namespace: "default", path: try Path(validating: path))
            if (owner == shard) != other { return path }
        }
        throw TestClientError(description: "no path found for shard \(shard)")
    }

    /// Committed bytes no release reads halt the group at runtime; after every member restarts, each starts with the
    /// group halted at that entry (what came before it recovered), and a write to another shard still commits.
    @Test(.timeLimit(.minutes(2))) func aRestartWithAnUndecodableCommittedEntryHaltsOnlyItsGroup() async throws {
        try await InProcessCluster.with(router: Self.router) { (members) async throws in
            let group = RaftGroupID(0)
            let before = try Self.path(shard: 0)
            #expect(try await InProcessCluster.write(1, at: before + "/stars", members: members))
            var index: UInt64 = 0
            #expect(
                await eventually(seconds: 30) {
                    for member in members {
                        guard let host = member.database?.service.host(group), host.softState.role == .leader,
                            case .accepted(let accepted, _) = host.propose([0xEE, 0x01, 0x02])
                        else { continue }
                        index = accepted
                        return true
                    }
                    return false
                })
            #expect(
                await eventually(seconds: 30) {
                    members.allSatisfy { $0.database?.service.host(group)?.halt?.index == index }
                })
            for member in members { await member.close() }
            for member in members { try await member.open() }
            for member in members {
                let halt = try #require(member.database?.service.host(group)?.halt)
                #expect(halt.index == index && halt.group == group)
                #expect(try member.value(before + "/stars") == Node(.int(1)), "entries before the halt recovered")
            }
            let other = try Self.path(shard: 0, other: true)
            #expect(try await InProcessCluster.write(2, at: other + "/stars", members: members))
            #expect(
                await eventually(seconds: 30) {
                    members.allSatisfy { (try? $0.value(other + "/stars")) == Node(.int(2)) }
                })
        }
    }
}
