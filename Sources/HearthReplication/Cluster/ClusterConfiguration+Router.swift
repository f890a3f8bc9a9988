package import HearthCluster
package import HearthDatabase

extension ClusterConfiguration {
    /// How a member routes locations: into the configuration's `shards` by the path hash, each of them held by its
    /// Raft group (shard `s` by group `s mod groupCount`). A member's state machines, snapshots and read view are
    /// per group — with one group per shard (no `groups` in the file) exactly the router every cluster had.
    package var router: ShardRouter {
        ShardRouter(shardCount: self.groupCount, shardDepth: self.shardDepth, hashBuckets: self.shards)
    }
}
