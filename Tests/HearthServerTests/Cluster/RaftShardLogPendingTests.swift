import HearthCluster
import Testing

@testable import HearthDatabase
@testable import HearthReplication
@testable import HearthServer

/// A leader's machine runs ahead of commit with the entries it proposes. Whatever commits instead of them — another
/// leader's entry at the same index, or any command while proposals of its own are outstanding — must mark the
/// machine for a rebuild, even when the step-down has not been observed yet (a 3-node failover benchmark crashed a
/// follower whose machine was one entry ahead of the log it was applying).
@Suite struct RaftShardLogPendingTests {
    private static let applied = ShardApplied(shard: 0, index: 7, effect: .bookkeeping(forgotten: []))

    private static func command(at index: UInt64, term: UInt64) -> RaftEntry {
        RaftEntry(index: index, term: term, payload: .command([1]))
    }

    @Test func itsOwnEntryCommittedInItsTermIsTaken() {
        var shards: [Int: RaftShardLog.Shard] = [0: RaftShardLog.Shard()]
        shards[0]?.pending[100] = (term: 5, applied: Self.applied)
        shards[0]?.lastProposed = ShardLogPosition(shard: 0, index: 7, sequence: 100, term: 5)
        let taken = RaftShardLog.takePending(&shards, shard: 0, entry: Self.command(at: 100, term: 5))
        #expect(taken?.index == 7)
        #expect(shards[0]?.needsRebuild == false)
    }

    @Test func anotherTermsEntryAtItsIndexMarksTheRebuild() {
        var shards: [Int: RaftShardLog.Shard] = [0: RaftShardLog.Shard()]
        shards[0]?.pending[100] = (term: 5, applied: Self.applied)
        shards[0]?.pending[101] = (term: 5, applied: Self.applied)
        shards[0]?.lastProposed = ShardLogPosition(shard: 0, index: 8, sequence: 101, term: 5)
        #expect(RaftShardLog.takePending(&shards, shard: 0, entry: Self.command(at: 100, term: 6)) == nil)
        #expect(shards[0]?.needsRebuild == true)
        #expect(shards[0]?.pending.isEmpty == true)
    }

    /// The proposal landed after the step-down cleared the others: only `lastProposed` remembers it.
    @Test func aProposalMadeAfterTheStepDownStillMarksTheRebuild() {
        var shards: [Int: RaftShardLog.Shard] = [0: RaftShardLog.Shard()]
        shards[0]?.lastProposed = ShardLogPosition(shard: 0, index: 7, sequence: 100, term: 5)
        #expect(RaftShardLog.takePending(&shards, shard: 0, entry: Self.command(at: 100, term: 6)) == nil)
        #expect(shards[0]?.needsRebuild == true)
    }

    @Test func aFollowersEntryLeavesTheMachineAlone() {
        var shards: [Int: RaftShardLog.Shard] = [0: RaftShardLog.Shard()]
        shards[0]?.lastProposed = ShardLogPosition(shard: 0, index: 7, sequence: 90, term: 5)
        #expect(RaftShardLog.takePending(&shards, shard: 0, entry: Self.command(at: 100, term: 6)) == nil)
        #expect(shards[0]?.needsRebuild == false)
    }

    /// A rebuilt machine holds no proposal: one that commits after the rebuild is applied, not taken as applied.
    @Test func aProposalOutlivingARebuildIsAppliedWhenItCommits() {
        var shards: [Int: RaftShardLog.Shard] = [0: RaftShardLog.Shard()]
        shards[0]?.pending[100] = (term: 5, applied: Self.applied)
        shards[0]?.pending[101] = (term: 5, applied: Self.applied)
        shards[0]?.lastProposed = ShardLogPosition(shard: 0, index: 8, sequence: 101, term: 5)
        shards[0]?.needsRebuild = true
        #expect(RaftShardLog.takePending(&shards, shard: 0, entry: Self.command(at: 100, term: 5)) != nil)
        RaftShardLog.rebuilt(&shards, shard: 0)
        #expect(shards[0]?.pending.isEmpty == true)
        #expect(RaftShardLog.takePending(&shards, shard: 0, entry: Self.command(at: 101, term: 5)) == nil)
        #expect(shards[0]?.needsRebuild == true, "the machine is rebuilt through 100 again, then 101 applied")
    }
}
