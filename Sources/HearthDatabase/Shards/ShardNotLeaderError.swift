/// This node cannot append to a shard's log now: another node leads the shard, or this node has just become its
/// leader and is still applying what earlier leaders committed. Nothing was applied; the write can be retried.
package struct ShardNotLeaderError: Error, Sendable, CustomStringConvertible {
    var shard: Int

    /// Makes the value from its parts: the memberwise initializer, for the modules above this one.
    package init(shard: Int) {
        self.shard = shard
    }

    package var description: String {
        "This node does not lead shard \(self.shard) at the moment (leadership is moving); nothing was applied. "
            + "Retry the write in a moment."
    }
}
