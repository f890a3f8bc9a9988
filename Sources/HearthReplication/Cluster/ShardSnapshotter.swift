import HearthCluster
import HearthDatabase
import HearthSystem

/// Takes the shards' snapshots off the commit path and compacts their logs: cuts a shard's part from a capture of
/// the read view (committed state on every node, leaders included, whose actors run ahead of commit), stores it
/// before anything depends on it (the store keeps it and the one before), cuts the group's Raft log at the older of
/// the two, then lets the node's write-ahead log drop what no group needs any more (`ReplicationService.releaseLog`).
///
/// One task (`run()`) works through the requests one at a time; a shard waits in the queue at most once. Every
/// `retentionInterval` it also asks the write-ahead log what it could drop, which makes idle groups write their
/// state again and asks for snapshots of groups whose old entries hold a segment back.
final class ShardSnapshotter: Sendable {
    private enum Request: Sendable {
        case snapshot(Int)
        case release
    }

    private let log: RaftShardLog
    private let logger: Log
    private let requests: AsyncStream<Request>
    private let continuation: AsyncStream<Request>.Continuation
    /// Shards asked for and not yet being worked on.
    private let queued = Lock<Set<Int>>([])

    init(log: RaftShardLog, logger: Log) {
        self.log = log
        self.logger = logger
        (self.requests, self.continuation) = AsyncStream.makeStream()
    }

    /// Asks for a snapshot of `shard`; nothing more while one is already asked for.
    func request(shard: Int) {
        guard self.queued.withLock({ $0.insert(shard).inserted }) else { return }
        self.continuation.yield(.snapshot(shard))
    }

    /// Works through the requests until cancelled.
    /// - Throws: the `StorageError` of a snapshot that could not be stored (the node's disk is failing; it stops).
    func run() async throws {
        let interval = self.log.policy.retentionInterval
        let continuation = self.continuation
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    while true {
                        try await self.log.clock.sleep(for: interval)
                        continuation.yield(.release)
                    }
                }
                group.addTask {
                    for await request in self.requests {
                        switch request {
                        case .snapshot(let shard): try await self.snapshot(shard)
                        case .release: self.release()
                        }
                    }
                }
                defer { group.cancelAll() }
                try await group.next()
            }
        } catch is CancellationError {
            return
        }
    }

    /// Snapshots `shard` at what the read view shows of it now, if that is newer than its last snapshot and the view
    /// can be cut there; stores it, compacts the group's log, and releases what the write-ahead log no longer needs.
    private func snapshot(_ shard: Int) async throws {
        self.queued.withLock { _ = $0.remove(shard) }
        let group = RaftGroupID(UInt32(shard))
        guard let (capture, position) = self.log.view.capture(shard: shard), let host = self.log.service.host(group)
        else { return }
        let newest = self.log.snapshotIndex(shard: shard)
        guard position > newest, let metadata = host.snapshotMetadata(at: position) else {
            // Nothing new to take: an idle shard whose log reaches back to its older snapshot writes those entries
            // again, so that they stop holding old segments of the write-ahead log.
            if host.snapshotCut.index < newest { host.rewriteDurableState(includingEntries: true) }
            return
        }
        let payload = ShardSnapshotPayload(
            snapshot: capture.snapshot(router: self.log.router), terms: self.log.terms(shard: shard, through: position))
        let data = payload.encoded()
        let oldestKept = try self.log.store.write(RaftSnapshot(metadata: metadata, data: data), shard: shard)
        // The log is cut at the older snapshot kept, not at this one: a restart that finds this one damaged starts
        // from the older one and the entries after it. The first snapshot cuts nothing.
        if oldestKept < position, oldestKept > host.snapshotCut.index {
            try await self.compact(group, through: oldestKept, host: host, shard: shard)
        }
        self.log.snapshotTaken(shard: shard, at: position)
        self.logger.debug(
            "shard.snapshot", ["shard": "\(shard)", "index": "\(position)", "bytes": "\(data.count)"])
        self.release()
    }

    /// Cuts `group`'s log through `index`, once the host has recorded it applied (it applies an entry before it
    /// records that); an installed snapshot that moved the log past `index` meanwhile leaves it to the next cut.
    private func compact(_ group: RaftGroupID, through index: UInt64, host: RaftGroupHost, shard: Int) async throws {
        var waited = 0
        while host.status.applied < index, waited < 1_000 {
            try await self.log.clock.sleep(for: .milliseconds(1))
            waited += 1
        }
        do {
            try await self.log.service.compact(group, through: index)
        } catch let error as RaftError {
            self.logger.debug("shard.compaction_skipped", ["shard": "\(shard)", "reason": error.description])
        }
    }

    /// Lets the write-ahead log drop what no group needs, and asks for the snapshots that would let it drop more.
    private func release() {
        // The member list's group compacts on its own (`MemberDirectory.compactIfDue`).
        for group in self.log.service.releaseLog() where group != .members {
            self.request(shard: Int(group.rawValue))
        }
    }
}
