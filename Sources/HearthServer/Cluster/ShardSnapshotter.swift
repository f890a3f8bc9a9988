import HearthCluster
import HearthSystem

/// Takes the shards' snapshots off the commit path and compacts their logs: cuts a shard's part from a capture of
/// the read view (committed state on every node, leaders included, whose actors run ahead of commit), stores it
/// before anything depends on it, cuts the group's Raft log there, then lets the node's write-ahead log drop what no
/// group needs any more (`ReplicationService.releaseLog`).
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
        guard let (capture, position) = self.log.view.capture(shard: shard),
            position > self.log.snapshotIndex(shard: shard), let host = self.log.service.host(group),
            let metadata = host.snapshotMetadata(at: position)
        else { return }
        let payload = ShardSnapshotPayload(
            snapshot: capture.snapshot(router: self.log.router), terms: self.log.terms(shard: shard, through: position))
        let data = payload.encoded()
        try self.log.store.write(RaftSnapshot(metadata: metadata, data: data), shard: shard)
        // The host applies an entry before it records it applied; compacting waits for that.
        var waited = 0
        while host.status.applied < position, waited < 1_000 {
            try await self.log.clock.sleep(for: .milliseconds(1))
            waited += 1
        }
        do {
            try await self.log.service.compact(group, through: position)
        } catch let error as RaftError {
            // An installed snapshot moved the log past `position` meanwhile; the next snapshot compacts.
            self.logger.debug("shard.compaction_skipped", ["shard": "\(shard)", "reason": error.description])
            return
        }
        self.log.snapshotTaken(shard: shard, at: position)
        self.logger.debug(
            "shard.snapshot", ["shard": "\(shard)", "index": "\(position)", "bytes": "\(data.count)"])
        self.release()
    }

    /// Lets the write-ahead log drop what no group needs, and asks for the snapshots that would let it drop more.
    private func release() {
        // The member list's group compacts on its own (`MemberDirectory.compactIfDue`).
        for group in self.log.service.releaseLog() where group != .members {
            self.request(shard: Int(group.rawValue))
        }
    }
}
