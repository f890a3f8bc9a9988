import HearthCluster
import HearthTestKit
import Synchronization
import Testing

/// `RaftGroupHost.readIndex(timeoutTicks:)` on three hosts of one group over `RaftGroupHostTests`' in-memory network
/// (ticks of 10 ms): the answer covers every entry committed before the call on the leader and on followers, reads
/// waiting together share rounds, a leader change is survived, and a replica cut off from its leader fails its reads
/// instead of answering.
@Suite struct RaftGroupHostReadIndexTests {
    typealias Cluster = RaftGroupHostTests.Cluster

    private func started() throws -> Cluster {
        let cluster = Cluster()
        for (offset, id) in RaftGroupHostTests.ids.enumerated() {
            try cluster.start(id, restoring: .bootstrap(voters: RaftGroupHostTests.ids), seed: UInt64(offset + 1))
        }
        return cluster
    }

    private func host(_ cluster: Cluster, _ id: NodeID) throws -> RaftGroupHost {
        try #require(cluster.hosts.withLock { $0[id] })
    }

    /// A running replica other than `excluded`'s.
    private func other(than excluded: RaftGroupHost, in cluster: Cluster) throws -> (NodeID, RaftGroupHost) {
        let found = cluster.hosts.withLock { $0 }.sorted { $0.key < $1.key }.first { $0.value !== excluded }
        let (id, host) = try #require(found)
        return (id, host)
    }

    private static func outcome(_ read: () async throws(ReadIndexError) -> UInt64) async -> Result<
        UInt64, ReadIndexError
    > {
        do {
            return .success(try await read())
        } catch {
            return .failure(error)
        }
    }

    /// The index every replica reads through is at least the leader's commit index when the read began.
    @Test(.timeLimit(.minutes(1))) func everyReplicaReadsThroughWhatWasCommittedBefore() async throws {
        let cluster = try self.started()
        for n in 0..<5 { #expect(await cluster.propose([UInt8(n)])) }
        let leader = try #require(cluster.leader())
        #expect(await eventually(seconds: 30) { leader.status.applied >= 6 })
        let committed = leader.status.commit
        for id in RaftGroupHostTests.ids {
            let index = try await self.host(cluster, id).readIndex(timeoutTicks: 3000)
            #expect(index >= committed)
        }
        await cluster.stopAll()
    }

    /// Reads started together on a follower share read-index rounds: far fewer requests reach the leader than
    /// reads were made, and every read gets an index.
    @Test(.timeLimit(.minutes(1))) func concurrentReadsShareRounds() async throws {
        let cluster = try self.started()
        #expect(await cluster.propose([1]))
        let leader = try #require(cluster.leader())
        let (_, follower) = try self.other(than: leader, in: cluster)
        #expect(await eventually(seconds: 30) { follower.softState.leader != nil })
        let before = cluster.forwardedReads.withLock { $0 }
        let indexes = try await withThrowingTaskGroup(of: UInt64.self) { group in
            for _ in 0..<100 { group.addTask { try await follower.readIndex(timeoutTicks: 3000) } }
            return try await group.reduce(into: [UInt64]()) { $0.append($1) }
        }
        #expect(indexes.count == 100)
        let forwarded = cluster.forwardedReads.withLock { $0 } - before
        #expect(forwarded >= 1 && forwarded <= 20, "\(forwarded) read-index requests for 100 reads")
        #expect(follower.pendingReadIndexRequests == 0)
        await cluster.stopAll()
    }

    /// A read waiting on a follower while its leader is cut off is answered by the next leader; a read on the cut-off
    /// leader fails, since no majority confirms it still leads.
    @Test(.timeLimit(.minutes(1))) func aReadOutlastsALeaderChange() async throws {
        let cluster = try self.started()
        #expect(await cluster.propose([1]))
        let oldLeaderHost = try #require(cluster.leader())
        let oldLeader = try #require(oldLeaderHost.softState.leader)
        let (_, follower) = try self.other(than: oldLeaderHost, in: cluster)
        #expect(await eventually(seconds: 30) { follower.softState.leader == oldLeader })
        let committed = oldLeaderHost.status.commit
        cluster.isolated.withLock { _ = $0.insert(oldLeader) }
        async let stale = Self.outcome { () async throws(ReadIndexError) -> UInt64 in
            try await oldLeaderHost.readIndex(timeoutTicks: 100)
        }
        let index = try await follower.readIndex(timeoutTicks: 3000)
        // Only a new leader answers, once its term's first entry committed: after everything the old one committed.
        #expect(index > committed)
        #expect(follower.softState.leader != oldLeader)
        switch await stale {
        case .success(let index): Issue.record("the cut-off leader answered a read with index \(index)")
        case .failure(let error): #expect(error == .timedOut || error == .noLeader)
        }
        await cluster.stopAll()
    }

    /// A replica cut off from every other fails its reads at their deadline, and a stopped host fails the reads
    /// still waiting.
    @Test(.timeLimit(.minutes(1))) func aCutOffReplicaFailsItsReads() async throws {
        let cluster = try self.started()
        #expect(await cluster.propose([1]))
        let leader = try #require(cluster.leader())
        let (followerID, follower) = try self.other(than: leader, in: cluster)
        cluster.isolated.withLock { _ = $0.insert(followerID) }
        await #expect(throws: ReadIndexError.self) { try await follower.readIndex(timeoutTicks: 20) }
        async let waiting = Self.outcome { () async throws(ReadIndexError) -> UInt64 in
            try await follower.readIndex(timeoutTicks: 100_000)
        }
        #expect(await eventually(seconds: 30) { follower.pendingReadIndexRequests == 1 })
        await cluster.stop(followerID)
        #expect(await waiting == .failure(.stopped))
        await cluster.stopAll()
    }
}
