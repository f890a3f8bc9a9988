/// A write the node could not carry out because the cluster cannot serve it right now (leadership is moving, a
/// shard's leader is unreachable), or a read it could not serve without risking a stale answer
/// (`ReadUnavailableError`). The description tells the client what happened and what to do; REST answers 503 with
/// it, the realtime protocol an `unavailable` status.
package protocol WriteUnavailableError: Error, CustomStringConvertible {}

extension ShardNotLeaderError: WriteUnavailableError {}
extension ShardNotCommittedError: WriteUnavailableError {}
extension ShardCallError: WriteUnavailableError {}
extension ShardReadLockLostError: WriteUnavailableError {}
extension TransactionAbortedError: WriteUnavailableError {}
extension TransactionUnfinishedError: WriteUnavailableError {}
extension NodeStoppingError: WriteUnavailableError {}
extension CommitTimeoutError: WriteUnavailableError {}
