/// A write's entry was not committed: leadership of its shard moved before it was, and another leader's entry took
/// its place. Nothing of the write was applied; it can be retried.
package struct ShardNotCommittedError: Error, Sendable, CustomStringConvertible {
    var shard: Int

    /// Makes the value from its parts: the memberwise initializer, for the modules above this one.
    package init(shard: Int) {
        self.shard = shard
    }

    package var description: String {
        "The write was not committed: leadership of shard \(self.shard) moved while it was being replicated. "
            + "Nothing of it was applied; retry it."
    }
}
