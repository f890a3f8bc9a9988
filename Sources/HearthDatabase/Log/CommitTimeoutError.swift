/// A write's entry was not seen committed in time: its shard may have lost its majority (a leader cut off from the
/// others keeps taking entries until it notices), so the write may or may not take effect.
package struct CommitTimeoutError: Error, Sendable, CustomStringConvertible {
    var shard: Int
    var waited: Duration

    /// Makes the value from its parts: the memberwise initializer, for the modules above this one.
    package init(shard: Int, waited: Duration) {
        self.shard = shard
        self.waited = waited
    }

    package var description: String {
        "The write was not confirmed within \(self.waited.components.seconds) s: shard \(self.shard) may have lost "
            + "its majority. It may or may not have been applied; read the data before retrying."
    }
}
