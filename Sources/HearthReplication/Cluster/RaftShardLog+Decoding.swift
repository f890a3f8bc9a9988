import HearthCluster
import HearthDatabase

/// Reading a committed command of a shard's group back as the shard entry it carries: the one place where a
/// committed entry this release cannot read becomes a `RaftApplyHalt` (the group's replica stops there, alone),
/// never a crash of every replica. A mixed-version rolling upgrade is the likely cause: a newer leader wrote an
/// entry kind (or version) an older follower does not know.
extension RaftShardLog {
    /// The shard entry, and its index in the shard's own log, that `shard`'s group committed as `command` at
    /// `entry`.
    /// - Throws: `RaftApplyHalt` naming the entry's index and term and why it cannot be applied: its bytes do not
    ///   decode, or they hold something other than one entry of this shard.
    static func shardEntry(_ command: [UInt8], at entry: RaftEntry, shard: Int) throws(RaftApplyHalt)
        -> (entry: ShardEntry, index: UInt64)
    {
        let group = RaftGroupID(UInt32(shard))
        let reason: String
        do {
            switch try ShardLogRecord(decoding: command) {
            case .entry(let owner, let index, let shardEntry) where owner == shard:
                return (shardEntry, index)
            case .entry(let owner, _, _):
                reason = "the entry belongs to shard \(owner), not this shard"
            case .entries:
                reason = "the entry holds several shards' entries, which only a single node's log may"
            case .legacy:
                reason = "the entry is a legacy single-node commit record, not a shard entry"
            }
        } catch let error as CommitRecordError {
            reason = "the entry does not decode as a shard entry this release reads (\(error.detail))"
        } catch {
            reason = "the entry does not decode as a shard entry this release reads (\(error))"
        }
        throw RaftApplyHalt(group: group, index: entry.index, term: entry.term, reason: reason)
    }

    /// Why `shard`'s replica on this node stopped applying its group's log; nil while it applies.
    func halt(shard: Int) -> RaftApplyHalt? {
        self.service.host(RaftGroupID(UInt32(shard)))?.halt
    }
}
