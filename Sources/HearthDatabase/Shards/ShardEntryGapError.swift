/// A log handed a shard's state machine an entry whose index does not follow the last one it applied: entries are
/// missing, repeated or out of order, so the log is damaged (or a bug wrote it so). Nothing of the entry is applied.
///
/// It is not a crash: a cluster member stops applying that shard's group there alone (`RaftApplyHalt`: the shard's
/// reads and writes on the node are refused with a 503 and reported in `/.ready` and `/.cluster`, every other shard
/// serves), and a single node's recovery stops with the record named.
public struct ShardEntryGapError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The shard whose log is damaged.
    public var shard: Int
    /// The index of the entry the log handed over.
    public var index: UInt64
    /// The index of the last entry the shard applied.
    public var lastIndex: UInt64

    /// Makes the value from its parts: the memberwise initializer, for the modules above this one.
    package init(shard: Int, index: UInt64, lastIndex: UInt64) {
        self.shard = shard
        self.index = index
        self.lastIndex = lastIndex
    }

    public var description: String {
        let what = self.index > self.lastIndex ? "entries are missing" : "entries are repeated or out of order"
        return "shard \(self.shard)'s log holds entry \(self.index) right after entry \(self.lastIndex): \(what), "
            + "so the log is damaged"
    }
}
