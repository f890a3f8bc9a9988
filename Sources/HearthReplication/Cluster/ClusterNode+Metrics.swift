import HearthCluster
import HearthNet
import HearthNode
import HearthSystem
import Synchronization

extension ClusterNode {
    /// A cluster member's replication figures for `/.metrics`: each shard's group as this node's replica sees it,
    /// each peer link, and the round trips of shard commands sent to other nodes' leaders. All are read at scrape
    /// time from the figures the replicas, the transport and the calls keep anyway.
    func registerOwnFigures(in metrics: Metrics) {
        let registry = metrics.registry
        let database = self.database
        let groups = database.shardGroups
        @Sendable func perShard(_ read: (Int, RaftGroupHost) -> Double) -> [(labels: [String], value: Double)] {
            groups.compactMap { group in
                database.service.host(group).map { host in ([String(group.rawValue)], read(Int(group.rawValue), host)) }
            }
        }
        registry.sampledGauges("hearth_raft_term", help: "Each shard group's current term.", labels: ["shard"]) {
            perShard { _, host in Double(host.softState.term) }
        }
        registry.sampledGauges(
            "hearth_raft_commit_index", help: "Each shard group's commit index on this replica.", labels: ["shard"]
        ) { perShard { _, host in Double(host.status.commit) } }
        registry.sampledGauges(
            "hearth_raft_apply_lag", help: "Committed entries of each shard this node has not shown yet.",
            labels: ["shard"]
        ) {
            perShard { shard, host in
                let commit = host.status.commit
                let delivered = database.log.delivered(shard: shard)
                return Double(commit > delivered ? commit - delivered : 0)
            }
        }
        registry.sampledGauges(
            "hearth_raft_group_halted",
            help: "1 for each shard whose replica here stopped at a committed entry it cannot apply, else 0.",
            labels: ["shard"]
        ) { perShard { _, host in host.halt == nil ? 0 : 1 } }
        let log = database.log
        registry.sampledCounter(
            "hearth_shard_halted_refusals_total",
            help: "Reads and writes refused because this node's replica of their shard stopped applying its log."
        ) { Double(log.haltedRefusals.load(ordering: .relaxed)) }
        registry.sampledGauges(
            "hearth_raft_is_leader", help: "1 for each shard this node leads, else 0.", labels: ["shard"]
        ) { perShard { _, host in host.softState.role == .leader ? 1 : 0 } }
        registry.sampledCounters(
            "hearth_raft_leader_changes_total", help: "New leaders each shard's group had, as this node saw them.",
            labels: ["shard"]
        ) { perShard { shard, _ in Double(database.log.leaderChanges(shard: shard)) } }
        registry.sampledGauges(
            "hearth_raft_follower_lag",
            help: "Entries each follower lacks, for the shards this node leads.", labels: ["shard", "peer"]
        ) {
            groups.flatMap { group -> [(labels: [String], value: Double)] in
                guard let host = database.service.host(group) else { return [] }
                return host.status.followers.map { ([String(group.rawValue), $0.node.name], Double($0.lag)) }
            }
        }
        let service = database.service
        registry.sampledCounter(
            "hearth_raft_messages_refused_total",
            help: "Raft messages from peers dropped because they carry an index or term no log can hold."
        ) { Double(service.refusedMessages) }
        let directory = database.directory
        registry.sampledGauges(
            "hearth_cluster_members", help: "Members of the member list as this node applied it, by membership state.",
            labels: ["state"]
        ) {
            let list = directory.list
            return [(["active"], Double(list.active.count)), (["leaving"], Double(list.leaving.count))]
        }
        let shardCount = self.cluster.groupCount
        registry.sampledGauge(
            "hearth_cluster_groups_moving",
            help: "Raft groups (shards and the member list) whose committed replica set is not the placement's yet."
        ) {
            let targets = directory.list.targets(shardCount: shardCount)
            return Double(
                targets.count { group, target in database.service.host(group)?.committedMembership != target })
        }
        let transport = self.transport
        registry.sampledGauges(
            "hearth_peer_connected", help: "1 while the link to each peer is up.", labels: ["peer"]
        ) { transport.statistics.map { ([$0.key.name], $0.value.isConnected ? 1 : 0) } }
        registry.sampledCounters(
            "hearth_peer_frames_dropped_total", help: "Frames to each peer dropped because its queue was full.",
            labels: ["peer"]
        ) { transport.statistics.map { ([$0.key.name], Double($0.value.framesDropped)) } }
        registry.sampledCounters(
            "hearth_peer_reconnects_total", help: "Connections to each peer after the first.", labels: ["peer"]
        ) { transport.statistics.map { ([$0.key.name], Double($0.value.reconnects)) } }
        registry.sampledCounters(
            "hearth_peer_handshakes_refused_total",
            help: "Peer connections closed before the peer proved the cluster secret and who it is, by reason "
                + "(releaseIncompatible: a release the upgrade rule does not allow beside this one).",
            labels: ["reason"]
        ) { transport.refusedHandshakesByReason.map { ([$0.key], Double($0.value)) } }
        let calls = database.calls
        registry.sampledCounters(
            "hearth_shard_call_round_trips_total", help: "Shard commands answered by each peer's leaders.",
            labels: ["peer"]
        ) { calls.roundTripTotals.map { ([$0.key.name], Double($0.value.count)) } }
        registry.sampledCounters(
            "hearth_shard_call_round_trip_seconds_total",
            help: "Seconds from sending a shard command to each peer to its answer, summed.", labels: ["peer"]
        ) { calls.roundTripTotals.map { ([$0.key.name], $0.value.seconds) } }
        let resolver = database.resolver
        registry.sampledCounters(
            "hearth_transactions_resolved_total",
            help: "Transactions whose coordinator went away, finished by this node's resolver, by reason "
                + "(no_coordinator: no member claimed it; prepared_too_long: a part outlived the resolve bound).",
            labels: ["reason"]
        ) {
            let statistics = resolver.statistics
            return [
                (["no_coordinator"], Double(statistics.orphansResolved)),
                (["prepared_too_long"], Double(statistics.timedOutResolved)),
            ]
        }
        registry.sampledCounter(
            "hearth_transaction_resolve_failures_total",
            help: "Resolutions that could not reach a transaction's anchor or a participant; the next pass retries."
        ) { Double(resolver.statistics.failures) }
        registry.sampledCounter(
            "hearth_transaction_claims_incomplete_total",
            help: "Questions to the coordinators that some member left unanswered, so no part could count as orphaned."
        ) { Double(resolver.statistics.incompleteClaims) }
        registry.sampledCounter(
            "hearth_transaction_resolved_prepared_seconds_total",
            help: "How long the parts of the resolved transactions had been prepared on this node, summed."
        ) { resolver.statistics.preparedSeconds }
        registry.sampledGauge(
            "hearth_transaction_resolved_prepared_seconds_max",
            help: "The longest a resolved transaction's part had been prepared on this node."
        ) { resolver.statistics.longestPreparedSeconds }
        registry.sampledCounter(
            "hearth_cluster_catch_up_held_requests_total",
            help: "Client requests and realtime sessions held while this member caught up after it started."
        ) { Double(database.requestsHeld.load(ordering: .relaxed)) }
        registry.sampledGauge(
            "hearth_cluster_catch_up_seconds",
            help: "How long this member held its clients' requests after it started, until it had caught up (or "
                + "--catch-up-hold-seconds ran out); 0 while it still holds."
        ) { database.catchUpHeldFor.map { Double($0.reactorNanoseconds) / 1e9 } ?? 0 }
    }
}
