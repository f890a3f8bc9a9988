import HearthCore
package import HearthStorage
package import HearthSystem
import Synchronization

/// Every Raft group this node takes part in (one per shard): one `RaftGroupHost` each, all persisting through the
/// node's one write-ahead log (so one fsync covers every group's batch), all ticked by one timer, all talking over
/// the peer transport (messages name their group).
///
/// Recovery reads the Raft records of the log back into each group's persistent state (`recover`); a group with
/// no records starts from its founding membership, which it writes first so a restart finds it again. Every Raft
/// record written or recovered is noted in a `RaftLogRetention`, so the log's old segments can go once every group's
/// snapshot covers them (`ReplicationService+Compaction.swift`).
package final class ReplicationService: Sendable {
    /// What `recover` found in the log: each group's persistent state, and which records each group still needs.
    package struct Recovered: Sendable {
        package var states: [RaftGroupID: RaftPersistentState]
        package var retention: RaftLogRetention

        package init(states: [RaftGroupID: RaftPersistentState], retention: RaftLogRetention) {
            self.states = states
            self.retention = retention
        }

        package subscript(group: RaftGroupID) -> RaftPersistentState? {
            get { self.states[group] }
            set { self.states[group] = newValue }
        }
    }

    /// What the service runs.
    package struct Configuration: Sendable {
        package var node: NodeID
        /// Each group's founding replica set, used when the log holds nothing for it.
        package var founding: [RaftGroupID: RaftMembership]
        package var raft: RaftConfiguration
        /// How often every group ticks (an election takes `raft.electionTicks` to `2 ×` that many ticks).
        package var tickInterval: Duration
        /// A snapshot with more data than this goes to a follower in chunks of this size (`SnapshotTransfers`).
        package var snapshotChunkBytes: Int
        /// What the ticker sleeps on.
        package var clock: any NodeClock

        package init(
            node: NodeID, founding: [RaftGroupID: RaftMembership], raft: RaftConfiguration,
            tickInterval: Duration = .milliseconds(100), snapshotChunkBytes: Int = 1 << 20,
            clock: any NodeClock = .system
        ) {
            self.clock = clock
            self.node = node
            self.founding = founding
            self.raft = raft
            self.tickInterval = tickInterval
            self.snapshotChunkBytes = snapshotChunkBytes
        }
    }

    /// What the service needs from the node around it.
    package struct IO: Sendable {
        /// Sends an encoded `RaftMessage` to a peer (the transport's `raft` frames); loss is fine.
        package var send: @Sendable (NodeID, [UInt8]) -> Void
        /// Installs a snapshot (when present, storing it durably before returning), then applies a group's committed
        /// entries in order; see `RaftGroupHost.IO.apply`.
        package var apply: @Sendable (RaftGroupID, RaftSnapshot?, [RaftEntry]) async throws -> Void
        /// A group's latest application snapshot, for followers too far behind for the log.
        package var latestSnapshot: @Sendable (RaftGroupID) -> RaftSnapshot?
        /// A group's role, leader or term changed.
        package var observe: @Sendable (RaftGroupID, RaftSoftState) -> Void
        /// Sends an encoded `SnapshotTransferFrame` to a peer (the transport's `raftSnapshot` frames); without it,
        /// snapshots go whole in one `raft` frame, however large.
        package var sendSnapshotPart: (@Sendable (NodeID, [UInt8]) -> Void)?

        package init(
            send: @escaping @Sendable (NodeID, [UInt8]) -> Void,
            apply: @escaping @Sendable (RaftGroupID, RaftSnapshot?, [RaftEntry]) async throws -> Void,
            latestSnapshot: @escaping @Sendable (RaftGroupID) -> RaftSnapshot? = { _ in nil },
            observe: @escaping @Sendable (RaftGroupID, RaftSoftState) -> Void = { _, _ in },
            sendSnapshotPart: (@Sendable (NodeID, [UInt8]) -> Void)? = nil
        ) {
            self.send = send
            self.apply = apply
            self.latestSnapshot = latestSnapshot
            self.observe = observe
            self.sendSnapshotPart = sendSnapshotPart
        }
    }

    private let configuration: Configuration
    private let hosts: [RaftGroupID: RaftGroupHost]
    private let log: Log
    /// Writes every group's records, noting which of them each group still needs.
    let writer: RaftLogWriter
    /// Sends every group's messages, large snapshots in chunks.
    private let transfers: SnapshotTransferShell
    /// Messages peers sent with numbers no log can hold (`RaftMessage.refusal`), dropped unseen by the replicas.
    private let refused = Atomic<UInt64>(0)

    /// Starts every group from `recovered` (what `recover` found), or from its founding membership, whose record it
    /// appends to `wal` first.
    /// - Throws: `RaftError` when a recovered state is not one Raft can start from.
    package init(
        configuration: Configuration, recovered: Recovered, wal: WriteAheadLog, io: IO, log: Log
    ) throws(RaftError) {
        self.configuration = configuration
        self.log = log
        let writer = RaftLogWriter(wal: wal, retention: recovered.retention)
        self.writer = writer
        let transfers = SnapshotTransferShell(
            chunkBytes: configuration.snapshotChunkBytes, sendMessage: io.send, sendPart: io.sendSnapshotPart)
        self.transfers = transfers
        var hosts: [RaftGroupID: RaftGroupHost] = [:]
        for (group, membership) in configuration.founding.sorted(by: { $0.key < $1.key }) {
            var state = recovered[group] ?? RaftPersistentState.bootstrap(voters: membership.voters)
            if recovered[group] == nil {
                state.snapshot.membership = membership
                _ = writer.enqueue([RaftGroupStorage.snapshotRecord(state.snapshot, group: group)])
            }
            let node = try RaftNode(
                id: configuration.node, group: group, configuration: configuration.raft, restoring: state,
                seed: Self.seed(node: configuration.node, group: group))
            hosts[group] = RaftGroupHost(
                node: node, io: Self.hostIO(group: group, writer: writer, transfers: transfers, io: io, log: log))
        }
        self.hosts = hosts
    }

    /// Every group's persistent state from the log's Raft records (other records are left to their owners), read
    /// from the oldest record the log still holds.
    /// - Throws: `RaftLogReplayError` naming the group whose records cannot be read; `StorageError` from the log.
    package static func recover(_ wal: WriteAheadLog) throws -> Recovered {
        var replay = RaftLogReplay()
        var retention = RaftLogRetention()
        try wal.replay(after: wal.firstLSN - 1) { record in
            guard record.payload.first == RaftLogRecord.formatVersion else { return }
            do {
                let decoded = try RaftLogRecord(decoding: record.payload)
                try replay.apply(decoded)
                retention.recorded(decoded, at: record.lsn)
            } catch let error as BinaryDecodingError {
                let place = record.location.map { "\($0.segment) at byte \($0.offset)" } ?? "record \(record.lsn)"
                throw RaftLogReplayError(group: nil, detail: "the record in \(place) cannot be read: \(error.detail)")
            }
        }
        var states: [RaftGroupID: RaftPersistentState] = [:]
        for (number, group) in try replay.finish() {
            let id = RaftGroupID(UInt32(number))
            states[id] = try RaftGroupStorage.persistentState(group, group: id)
        }
        return Recovered(states: states, retention: retention)
    }

    /// The groups this node hosts.
    package var groups: [RaftGroupID] { self.hosts.keys.sorted() }

    /// The host of `group`, if this node takes part in it.
    package func host(_ group: RaftGroupID) -> RaftGroupHost? { self.hosts[group] }

    /// `group`'s read index (`RaftGroupHost.readIndex(timeoutTicks:)`), waiting at most about `timeout` (counted
    /// in the groups' ticks).
    /// - Throws: `ReadIndexError`; `.stopped` also when this node does not take part in `group`.
    package func readIndex(_ group: RaftGroupID, timeout: Duration) async throws(ReadIndexError) -> UInt64 {
        guard let host = self.hosts[group] else { throw .stopped }
        let ticks = (timeout / self.configuration.tickInterval).rounded(.up)
        return try await host.readIndex(timeoutTicks: Int(min(max(ticks, 1), Double(Int32.max))))
    }

    /// A frame of kind `raft` from `peer`; one that cannot be decoded, or names a group this node does not host, is
    /// logged and dropped.
    package func receive(_ payload: [UInt8], from peer: NodeID) {
        let message: RaftMessage
        do {
            message = try RaftMessage(decoding: payload)
        } catch {
            self.log.warning("raft.bad_message", ["from": peer.name, "error": error.detail])
            return
        }
        guard message.from == peer, message.to == self.configuration.node, let host = self.hosts[message.group] else {
            self.log.warning("raft.misrouted", ["from": peer.name, "group": "\(message.group.rawValue)"])
            return
        }
        self.deliver(message, to: host)
    }

    /// How many messages peers sent that no replica could take (`RaftMessage.refusal`), for `/.metrics`.
    package var refusedMessages: UInt64 { self.refused.load(ordering: .relaxed) }

    /// Hands `message` to its group's replica, unless its numbers are ones no log can hold: such a message (from a
    /// buggy or newer member) is counted and dropped, and the first one is logged, so it cannot stop the replica.
    private func deliver(_ message: RaftMessage, to host: RaftGroupHost) {
        guard let reason = message.refusal else {
            host.step(message)
            return
        }
        let (before, _) = self.refused.add(1, ordering: .relaxed)
        guard before == 0 else { return }
        self.log.warning(
            "raft.refused_message",
            ["from": message.from.name, "group": "\(message.group.rawValue)", "reason": reason])
    }

    /// A frame of kind `raftSnapshot` from `peer` (a piece of a snapshot's transfer); a snapshot it completes goes
    /// to its group's replica. One that cannot be decoded is logged and dropped.
    package func receiveSnapshotPart(_ payload: [UInt8], from peer: NodeID) {
        let frame: SnapshotTransferFrame
        do {
            frame = try SnapshotTransferFrame(decoding: payload)
        } catch {
            self.log.warning("raft.bad_snapshot_part", ["from": peer.name, "error": error.detail])
            return
        }
        for message in self.transfers.receive(frame, from: peer) {
            guard message.to == self.configuration.node, let host = self.hosts[message.group] else { continue }
            self.deliver(message, to: host)
        }
    }

    /// Runs every group and the ticker until cancelled.
    /// - Throws: the first persistence failure (the node must stop: it can no longer make anything durable).
    package func run() async throws {
        let hosts = Array(self.hosts.values)
        let interval = self.configuration.tickInterval
        let clock = self.configuration.clock
        let transfers = self.transfers
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for host in hosts {
                    group.addTask { try await host.run() }
                }
                group.addTask {
                    while true {
                        try await clock.sleep(for: interval)
                        for host in hosts { host.tick() }
                        transfers.tick()
                    }
                }
                defer {
                    for host in hosts { host.stop() }
                    group.cancelAll()
                }
                try await group.next()
            }
        } catch is CancellationError {
            return
        }
    }

    private static func hostIO(
        group: RaftGroupID, writer: RaftLogWriter, transfers: SnapshotTransferShell, io: IO, log: Log
    ) -> RaftGroupHost.IO {
        RaftGroupHost.IO(
            persist: { records in try await writer.persist(records) },
            send: { message in transfers.send(message) },
            apply: { snapshot, entries in
                do {
                    try await io.apply(group, snapshot, entries)
                } catch let halt as RaftApplyHalt {
                    Self.report(halt, to: log)
                    throw halt
                }
            },
            latestSnapshot: { io.latestSnapshot(group) },
            observe: { state in io.observe(group, state) })
    }

    /// Stops `halt.group`'s replica before it runs, at a committed entry recovery found it cannot apply: the node
    /// starts, the group's other replicas go on without this one, and the halt is reported as at runtime.
    package func halt(_ halt: RaftApplyHalt) {
        guard let host = self.hosts[halt.group] else { return }
        host.halt(halt)
        Self.report(halt, to: self.log)
    }

    /// The one log line of a replica that stopped at an entry it cannot apply.
    private static func report(_ halt: RaftApplyHalt, to log: Log) {
        log.critical(
            "raft.group_halted",
            [
                "group": "\(halt.group.rawValue)", "index": "\(halt.index)", "term": "\(halt.term)",
                "reason": halt.description,
            ])
    }

    /// A different election-timeout seed per node and group, stable across restarts of the node.
    private static func seed(node: NodeID, group: RaftGroupID) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in node.name.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash ^ UInt64(group.rawValue) &* 0x9E37_79B9_7F4A_7C15
    }
}
