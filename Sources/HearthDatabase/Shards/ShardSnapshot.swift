import HearthCore

/// One shard's whole state at one index, as bytes: what a shard's Raft group sends a replica too far behind for
/// the log, what a node restarts the shard from, and what a leader that steps down rebuilds from.
///
/// The format is the node snapshot's (`SnapshotContent`) restricted to one shard: its `I` line, the transactions
/// prepared in it (`T`), the decisions it anchors and has not forgotten (`D`, its machine's), the spine nodes that
/// may carry a priority (`M`: a node this shard no longer holds part of keeps its mark), then its trees — its own
/// subtrees and its copy of the spine. Decoding rebuilds a `ShardStateMachine` that applies the following
/// entries exactly as the one it was taken from.
///
/// A snapshot cut from a node's read view also carries `cut`, a `C` line per other shard: how far the view had
/// received each shard's entries when the snapshot was taken. The view took it at a moment when no transaction
/// touching this shard was half received, so a transaction's part in this shard is inside the snapshot exactly
/// when its parts in the other shards are at or below the cut (`CommitFeed.restore`).
package struct ShardSnapshot: Sendable {
    package var machine: ShardStateMachine
    /// Decisions the shard anchors and has not forgotten (a machine cut from the read view holds these too).
    var decisions: [TransactionID: Bool]
    /// Per other shard, the index through which the read view had received its entries (empty when the snapshot
    /// was not cut from a read view).
    var cut: [Int: UInt64] = [:]

    /// The snapshot's bytes.
    func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        self.encode(into: &bytes)
        return bytes
    }

    /// Appends the snapshot's bytes to `bytes`.
    package func encode(into bytes: inout [UInt8]) {
        let own = SnapshotContent.ShardCut(
            shard: self.machine.shard, index: self.machine.lastIndex, intents: self.machine.intents,
            decisions: self.decisions, spinePriorities: self.machine.spinePriorities, sessions: self.machine.sessions)
        do {
            try SnapshotContent.encode(
                roots: self.machine.trees, cuts: [own], received: self.cut.filter { $0.key != self.machine.shard },
                depth: self.machine.spineDepth, into: &bytes)
        } catch {
            preconditionFailure("writing a shard snapshot to memory failed: \(error)")
        }
    }

    /// Decodes the snapshot of shard `shard`.
    /// - Throws: `CommitRecordError` when the bytes are damaged or hold another shard's snapshot.
    package static func decode(_ bytes: [UInt8], shard: Int, spineDepth: Int, parallelism: Int = 1) async throws
        -> ShardSnapshot
    {
        let decoded = try await SnapshotContent.decode(bytes, parallelism: parallelism)
        guard decoded.appliedIndex.count == 1, let index = decoded.appliedIndex[shard],
            decoded.intents.keys.allSatisfy({ $0 == shard }), decoded.decisions.keys.allSatisfy({ $0 == shard }),
            decoded.spinePriorities.keys.allSatisfy({ $0 == shard }), decoded.sessions.keys.allSatisfy({ $0 == shard })
        else {
            let held = decoded.appliedIndex.keys.sorted().map(String.init).joined(separator: ", ")
            throw CommitRecordError("a snapshot of shard \(shard) holds shard(s) [\(held)] instead")
        }
        let machine = ShardStateMachine(
            shard: shard, spineDepth: spineDepth, trees: decoded.roots, index: index,
            intents: decoded.intents[shard] ?? [:], spinePriorities: decoded.spinePriorities[shard] ?? [:],
            decisions: decoded.decisions[shard] ?? [:], sessions: decoded.sessions[shard] ?? WriteSessions())
        return ShardSnapshot(machine: machine, decisions: decoded.decisions[shard] ?? [:], cut: decoded.received)
    }
}
