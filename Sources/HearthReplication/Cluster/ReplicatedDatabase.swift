import HearthCluster
import HearthDatabase
import HearthStorage
import HearthSystem
import Synchronization

/// One node's database in a cluster: every shard's Raft group (`ReplicationService`) under the shards' actors, the
/// coordinator and the read view, all persisting through the node's one write-ahead log.
///
/// Opening it recovers what the log and the stored snapshots hold: each group's Raft state, and each shard's state
/// machine and part of the read view from its latest snapshot and the entries its group had committed after it, as
/// if those arrived now. The groups then take over and deliver only what commits from there on. Shards are
/// snapshotted and their logs compacted as they grow (`ShardSnapshotter`, `ShardSnapshotPolicy`).
final class ReplicatedDatabase: DatabaseAccess {
    /// Sends one frame of a kind to a peer; false when the transport would not queue it.
    typealias Send = @Sendable (NodeID, PeerFrameKind, [UInt8]) -> Bool

    /// This node's id.
    let node: NodeID
    let service: ReplicationService
    let log: RaftShardLog
    let view: DatabaseView
    let coordinator: Coordinator
    let wal: WriteAheadLog
    let snapshotter: ShardSnapshotter
    let clock = ServerClock()
    /// Shard commands this node's coordinator sent to other nodes' leaders, waiting for answers.
    let calls: ShardCalls
    /// Runs the shard commands other nodes' coordinators send to this node's leaders.
    let callServer: ShardCallServer
    /// Where this node's compare-and-sets take turns: at the leaders of their locations' shards.
    let conditionalWriteTurns: ClusterConditionalWriteTurns
    /// Finishes transactions whose coordinator went away, on the shards this node leads.
    let resolver: IntentResolver
    /// Every shard's actor on this node (leading or following).
    let actors: [ShardActor]
    /// How long a read waits for its shards' read indexes and for this node to apply through them
    /// (`ReplicatedDatabase+Reads.swift`).
    let readTimeout: Duration
    /// The cluster's member list as this node's replica of its group has applied it.
    let directory: MemberDirectory
    /// How often the groups this node leads take their next step toward the placement (`rebalanceOnce`).
    let rebalanceInterval: Duration
    /// Removals of leaving members this node proposed as the member list's leader, by member: the Raft index of
    /// the proposal (not proposed again until the list has applied past it).
    let removalsProposed = Lock<[NodeID: UInt64]>([:])
    /// Removed members the member list's group still keeps as learners, by member: how many rounds so far.
    let removedKept = Lock<[NodeID: Int]>([:])
    private let failed = Atomic(false)
    /// Whether the member takes its clients' requests yet (`ReplicatedDatabase+CatchUp.swift`), and the decision.
    let serving: Atomic<Bool>
    let catchUp: Lock<CatchUpHold>
    /// Client requests that waited for the member to catch up after it started (for `/.metrics`).
    let requestsHeld = Atomic<UInt64>(0)
    /// Where the node's own events are logged.
    let logger: Log

    private init(
        node: NodeID, service: ReplicationService, log: RaftShardLog, view: DatabaseView, coordinator: Coordinator,
        wal: WriteAheadLog, snapshotter: ShardSnapshotter, calls: ShardCalls, callServer: ShardCallServer,
        conditionalWriteTurns: ClusterConditionalWriteTurns, resolver: IntentResolver, actors: [ShardActor],
        readTimeout: Duration, directory: MemberDirectory, rebalanceInterval: Duration, catchUp: CatchUpHold,
        logger: Log
    ) {
        self.catchUp = Lock(catchUp)
        // No hold: serving from the start, so no request takes the holding path and no look is logged.
        self.serving = Atomic(catchUp.maximumHold == .zero)
        self.logger = logger
        self.conditionalWriteTurns = conditionalWriteTurns
        self.directory = directory
        self.rebalanceInterval = rebalanceInterval
        self.node = node
        self.service = service
        self.log = log
        self.view = view
        self.coordinator = coordinator
        self.wal = wal
        self.snapshotter = snapshotter
        self.calls = calls
        self.callServer = callServer
        self.resolver = resolver
        self.actors = actors
        self.readTimeout = readTimeout
    }

    /// Opens the log in `directory`, recovers, and wires the shards to their groups.
    /// - Parameters:
    ///   - founding: each group's founding replica set (shards and `RaftGroupID.members`), used for a group the log
    ///     holds nothing of: the placement's for a founding member, `RaftMembership.empty` for a node joining a
    ///     running cluster (it waits for each group's leader to add it).
    ///   - members: the member list the cluster was founded with; the member-list group's log and snapshot take it
    ///     from there.
    ///   - rebalanceInterval: how often the groups this node leads take their next step toward the placement.
    ///   - send: sends a frame to a peer (Raft messages, shard calls and their replies).
    ///   - callTimeout: how long a shard command sent to another node's leader waits for its answer.
    ///   - leaderWait: how long a write waits for a shard to have a leader that takes it.
    ///   - commitTimeout: how long a write waits for its entries to commit before its outcome is reported unknown,
    ///     and a read for its shards' read indexes and for this node to apply through them.
    ///   - orphanCheckAfter: how long a transaction's part may stay prepared (or its read lock held) on a shard
    ///     this node leads before the resolver asks the coordinators whether it still runs, and finishes it if none
    ///     does.
    ///   - resolveAfter: how long a transaction's part may stay prepared (or its read lock held) on a shard this
    ///     node leads before the resolver finishes it whatever the coordinators say.
    ///   - catchUpHold: how long at most the member holds its clients' requests after it opens, until it has caught
    ///     up (`CatchUpHold`, `hearth serve --catch-up-hold-seconds`); zero serves at once.
    ///   - snapshots: when shards are snapshotted and their logs compacted.
    ///   - walSegmentBytes: the size past which the write-ahead log starts a new segment file (old segments are
    ///     deleted whole once every group's snapshot covers them).
    ///   - environment: the clock, disk and executor the node runs on (a simulation's, in tests); `directory` and
    ///     its missing parents are created on its disk.
    static func open(
        directory: String, node: NodeID, router: ShardRouter, founding: [RaftGroupID: RaftMembership],
        members: MemberList, raft: RaftConfiguration, tickInterval: Duration, fsync: FsyncMode = .batch,
        callTimeout: Duration = .seconds(5), leaderWait: Duration = .seconds(10),
        orphanCheckAfter: Duration = .milliseconds(200), resolveAfter: Duration = .seconds(10),
        commitTimeout: Duration = .seconds(10), catchUpHold: Duration = .zero,
        snapshots: ShardSnapshotPolicy = ShardSnapshotPolicy(),
        walSegmentBytes: Int = WALConfiguration().segmentBytes, rebalanceInterval: Duration = .milliseconds(250),
        environment: NodeEnvironment = .system,
        send: @escaping Send, logger: Log
    ) async throws -> ReplicatedDatabase {
        try environment.fileSystem.createDirectories(directory)
        var walConfiguration = WALConfiguration()
        walConfiguration.fsync = fsync
        walConfiguration.segmentBytes = walSegmentBytes
        walConfiguration.writer = environment.walWriter
        let wal = try WriteAheadLog(
            directory: directory, configuration: walConfiguration, fileSystem: environment.fileSystem
        ) { _ in }
        environment.onLogOpened?(wal)
        var recovered = try ReplicationService.recover(wal)
        // Before anything is written: a directory's data is recorded with its layout before its log holds any.
        try ClusterLayout(router: router).check(
            directory: directory, holdsData: recovered.states.keys.contains { $0 != .members },
            fileSystem: environment.fileSystem)
        let store = try ShardSnapshotStore(
            directory: directory, shardCount: router.shardCount, fileSystem: environment.fileSystem)
        var shardsRecovered: [RecoveredShard] = []
        for shard in 0..<router.shardCount {
            shardsRecovered.append(
                try await Self.recover(
                    shard: shard, router: router, store: store, recovered: &recovered, log: logger))
        }
        let (memberDirectory, membersUnrecorded) = try MemberDirectory.recover(
            founding: members, directory: directory, recovered: &recovered, fileSystem: environment.fileSystem)
        wal.start()
        let view = DatabaseView(shardCount: router.shardCount, hashBuckets: router.hashBuckets)
        for case let (snapshot, index)? in shardsRecovered.map(\.snapshot) {
            view.restore(snapshot, position: index)
        }
        for (shard, recoveredShard) in shardsRecovered.enumerated() {
            view.receive(recoveredShard.applied, shard: shard, position: recoveredShard.log.delivered)
        }
        let slot = LogSlot()
        var random = environment.random
        let calls = ShardCalls(timeout: callTimeout, clock: environment.clock, log: logger, firstID: random.next()) {
            peer, bytes in send(peer, .shardCall, bytes)
        }
        let gate = ConditionalWriteGate(shardOf: { router.shard(namespace: $0.namespace, path: $0.path) })
        let io = ReplicationService.IO(
            send: { peer, bytes in _ = send(peer, .raft, bytes) },
            apply: { group, snapshot, entries in
                if group == .members {
                    if let snapshot { try memberDirectory.install(snapshot) }
                    try memberDirectory.committed(entries)
                    return
                }
                let replication = try slot.wired()
                let shard = Int(group.rawValue)
                if !entries.isEmpty { environment.onCommitted?(group, entries) }
                if let snapshot {
                    try await replication.log.install(shard: shard, snapshot, restoring: replication.applier)
                }
                guard !entries.isEmpty else { return }
                if try await replication.log.committed(shard: shard, entries, applying: replication.applier) {
                    replication.snapshotter.request(shard: shard)
                }
            },
            latestSnapshot: { group in
                guard group != .members else { return memberDirectory.latestSnapshot() }
                return slot.current.withLock { $0 }?.log.latestSnapshot(shard: Int(group.rawValue))
            },
            observe: { group, state in
                guard group != .members else { return }
                if let leader = state.leader {
                    calls.leaderChanged(shard: Int(group.rawValue), to: leader)
                    // Another node's gate keeps the shard's lines now.
                    if leader != node { gate.moved(shard: Int(group.rawValue)) }
                }
                slot.current.withLock { $0 }?.log.observe(shard: Int(group.rawValue), state)
            },
            sendSnapshotPart: { peer, bytes in _ = send(peer, .raftSnapshot, bytes) })
        let service = try ReplicationService(
            configuration: ReplicationService.Configuration(
                node: node, founding: founding, raft: raft, tickInterval: tickInterval,
                snapshotChunkBytes: snapshots.transferChunkBytes, clock: environment.clock),
            recovered: recovered, wal: wal, io: io, log: logger)
        for (shard, recoveredShard) in shardsRecovered.enumerated() {
            guard let metadata = recoveredShard.unrecorded else { continue }
            try await service.recordSnapshot(metadata, group: RaftGroupID(UInt32(shard)))
        }
        for case let halt? in shardsRecovered.map(\.halt) { service.halt(halt) }
        if let membersUnrecorded { try await service.recordSnapshot(membersUnrecorded, group: .members) }
        let log = RaftShardLog(
            service: service, view: view, store: store, router: router, policy: snapshots,
            recovered: Dictionary(uniqueKeysWithValues: shardsRecovered.enumerated().map { ($0, $1.log) }),
            commitTimeout: commitTimeout, clock: environment.clock)
        let snapshotter = ShardSnapshotter(log: log, logger: logger)
        let shards = shardsRecovered.map { ShardActor(machine: $0.machine, log: log, clock: environment.clock) }
        let applier = RaftShardLog.Applier(
            apply: { shard, entries in await shards[shard].applyCommitted(entries) },
            rebuild: { shard, base, committed throws(ShardEntryGapError) in
                try await shards[shard].rebuild(from: base, applying: committed)
            },
            restore: { machine in await shards[machine.shard].restore(machine) })
        slot.current.withLock { $0 = ShardReplication(log: log, applier: applier, snapshotter: snapshotter) }
        let local = LocalShardClient(actors: shards)
        let client = RoutedShardClient(
            node: node, local: local, log: log, calls: calls, leaderWait: leaderWait, clock: environment.clock)
        let coordinator = Coordinator(
            router: router, shards: client, log: log, view: view, random: random)
        let callServer = ShardCallServer(
            shards: local, running: coordinator.running, leader: { log.leader(shard: $0) },
            reply: { peer, bytes in _ = send(peer, .shardReply, bytes) }, turns: RemoteTurnService(gate: gate),
            executor: environment.executor, log: logger)
        let turns = ClusterConditionalWriteTurns(
            local: gate, node: node,
            leader: { target in
                router.shard(namespace: target.namespace, path: target.path).flatMap { log.leader(shard: $0) }
            },
            admitTimeout: gate.settings.maximumHold + .seconds(1),
            call: { command, peer, timeout in try await calls.call(command, shard: 0, to: peer, timeout: timeout) })
        let claims = ClaimsQuestion(
            node: node, running: coordinator.running, calls: calls,
            members: { memberDirectory.list.members.map(\.id) }, timeout: min(callTimeout, Self.claimsTimeout))
        let resolver = IntentResolver(
            actors: shards, client: client, log: log, forgets: coordinator.forgets, claims: claims.ask,
            orphanCheckAfter: orphanCheckAfter, resolveAfter: resolveAfter, readLockTimeout: resolveAfter,
            clock: environment.clock, logger: logger)
        return ReplicatedDatabase(
            node: node, service: service, log: log, view: view, coordinator: coordinator, wal: wal,
            snapshotter: snapshotter, calls: calls, callServer: callServer, conditionalWriteTurns: turns,
            resolver: resolver, actors: shards,
            readTimeout: commitTimeout, directory: memberDirectory, rebalanceInterval: rebalanceInterval,
            catchUp: CatchUpHold(opened: environment.clock.now, maximumHold: catchUpHold), logger: logger)
    }

    /// A frame from a peer: Raft messages go to their group, shard calls to this node's leaders, replies to the
    /// calls waiting for them. Other kinds are not the database's.
    func receive(kind: PeerFrameKind, _ payload: [UInt8], from peer: NodeID) {
        switch kind {
        case .raft: self.service.receive(payload, from: peer)
        case .raftSnapshot: self.service.receiveSnapshotPart(payload, from: peer)
        case .shardCall: self.callServer.receive(payload, from: peer)
        case .shardReply: self.calls.receive(payload, from: peer)
        case .membership, .join: break
        }
    }

    /// Whether persisting a group's entries failed: the node can no longer make writes durable and must stop.
    var hasFailed: Bool { self.failed.load(ordering: .relaxed) }

    /// A cluster node can serve every shard when its log works, every shard's group has a leader this node has
    /// heard from within an election timeout, and this node has applied all but the last `readyLag` entries it
    /// knows its groups committed (snapshots installed from leaders included).
    var notReadyReason: String? { self.notReadyReason(allowingLag: Self.readyLag) }

    /// How many committed entries of a shard a ready node may not have applied yet. Under a steady stream of writes
    /// a healthy replica is always a replication round behind (a few entries); one that is catching up after a
    /// restart or a partition is thousands behind. (Reads never depend on it: the read barrier waits for the exact
    /// index.)
    static let readyLag: UInt64 = 128

    /// `notReadyReason` with a chosen allowance: 0 asks that every committed entry be applied (a simulation's
    /// convergence check). Without `countingStops`, what waiting cannot end — a failed log, a shard that stopped
    /// applying — does not count: what is left says whether the member is still catching up (`CatchUpHold`, which
    /// would otherwise hold every request for its whole bound on a member with one halted shard).
    func notReadyReason(allowingLag lag: UInt64, countingStops: Bool = true) -> String? {
        if countingStops, self.hasFailed { return "Persisting a shard's log failed; this node is not serving." }
        if let reason = self.membershipNotReadyReason { return reason }
        for group in self.shardGroups {
            guard let host = self.service.host(group) else { continue }
            let shard = Int(group.rawValue)
            if let halt = host.halt {
                guard countingStops else { continue }
                return "Shard \(shard) stopped applying its log here at committed entry \(halt.index) (term "
                    + "\(halt.term)): \(halt.reason). What to do: \(halt.remedy)."
            }
            guard let leader = host.softState.leader else {
                if host.membership.members.isEmpty {
                    return "Shard \(shard) has not reached this node yet: it joined the cluster and waits for the "
                        + "shard's leader to add it."
                }
                return "Shard \(shard) has no leader yet (an election is running)."
            }
            guard host.hearsLeader else {
                return "Shard \(shard) has not heard from its leader \(leader.name) for an election timeout; this node "
                    + "may be cut off from the others."
            }
            // Against the leader's commit, not this replica's own: a replica catching up commits only the entries
            // it holds, so by its own index it looks caught up at every leader's message.
            let commit = host.knownCommit
            let delivered = self.log.delivered(shard: shard)
            if delivered + lag < commit {
                return "Shard \(shard) is catching up: applied through \(delivered) of \(commit) committed entries."
            }
        }
        if let shard = self.view.shardsWaitingForSnapshot.first {
            return "Shard \(shard) is catching up: its snapshot waits for the other shards to reach it."
        }
        return nil
    }

    /// How long the resolver's question to the coordinators waits for each member's answer. A member answers from
    /// memory (`RunningTransactions`), within a round trip; one that is silent this long is dead or cut off, and
    /// every pass that asks waits this long for it, so it bounds how soon a dead coordinator's parts are resolved
    /// (with `IntentResolver.silenceAfter`).
    static let claimsTimeout = Duration.milliseconds(300)

    /// Runs the groups until cancelled; throws the first persistence failure.
    func run() async throws {
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await self.calls.run() }
                group.addTask {
                    // Ends once the member serves: a child task of its own would end the group then.
                    async let learned: Void = self.learnLeaderCommits()
                    while (try? await self.log.clock.sleep(for: .milliseconds(100))) != nil {
                        self.log.expireWaits()
                        self.view.expireWaits(now: self.log.clock.now)
                        if !self.isServing { self.lookAtCatchUp() }
                    }
                    await learned
                }
                group.addTask { try await self.service.run() }
                group.addTask {
                    while (try? await self.log.clock.sleep(for: self.resolver.orphanCheckAfter / 2)) != nil {
                        await self.resolver.resolveOnce()
                    }
                }
                group.addTask { await self.coordinator.forgetFinishedDecisionsUntilCancelled(clock: self.log.clock) }
                group.addTask { try await self.snapshotter.run() }
                group.addTask { try await self.rebalanceUntilCancelled() }
                defer {
                    group.cancelAll()
                    // Nothing commits here any more: the writes and resolutions still waiting fail now, so every
                    // child task can end.
                    self.log.close()
                    self.calls.failAll()
                }
                try await group.next()
            }
        } catch {
            self.failed.store(true, ordering: .relaxed)
            throw error
        }
    }

    /// Flushes and closes the log (call after `run` has returned).
    func close() async {
        await self.wal.close()
        self.view.close()
    }
}

/// What the shards' groups deliver their commits to, wired in one piece: the shard log, the applier over the shards'
/// actors, and the snapshotter asked for a snapshot when one is due.
private struct ShardReplication: Sendable {
    let log: RaftShardLog
    let applier: RaftShardLog.Applier
    let snapshotter: ShardSnapshotter
}

/// Where the groups find their `ShardReplication`, which is built after them (the log proposes into the groups).
/// `open` fills it before it returns, and the groups deliver nothing before `run()`: a delivery that found it empty
/// would be a wiring bug, and fails the group's run loop (`ReplicationNotWiredError`) rather than drop the commits.
private final class LogSlot: Sendable {
    let current = Lock<ShardReplication?>(nil)

    /// The wiring, which every delivery needs.
    func wired() throws(ReplicationNotWiredError) -> ShardReplication {
        guard let replication = self.current.withLock({ $0 }) else { throw ReplicationNotWiredError() }
        return replication
    }
}

/// A shard's group delivered commits before the node finished wiring its shards: a bug in the node's start-up, not
/// anything an operator did. The node stops rather than apply them out of order or drop them.
struct ReplicationNotWiredError: Error, Sendable, CustomStringConvertible {
    var description: String {
        "A shard's replication group delivered commits before the node finished starting; the node stops. Report "
            + "this as a bug, with the node's log."
    }
}
