/// What `--chaos kill-leader` did: which node it killed (the leader of which shard), when, for how long, and how soon
/// throughput came back.
public struct ChaosOutcome: Sendable, Equatable {
    public var node: String
    public var shard: Int
    /// Seconds into the run.
    public var killedAt: Double
    public var downSeconds: Double
    /// From the kill until throughput was back to half its rate before (`ThroughputRecovery`); nil if it did not
    /// come back within the run.
    public var recoverySeconds: Double?
    /// Why the kill or the restart failed, if one did.
    public var failure: String?

    public init(node: String, shard: Int, killedAt: Double, downSeconds: Double) {
        self.node = node
        self.shard = shard
        self.killedAt = killedAt
        self.downSeconds = downSeconds
    }
}
