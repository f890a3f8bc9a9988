import HearthCluster
import HearthNet
import HearthStorage
import HearthSystem
import HearthTestKit
import Synchronization
import Testing

/// Three nodes in one process, each with its own write-ahead log and peer transport on loopback, hosting four Raft
/// groups: leaders are elected, proposals commit on every node, a node restarted from its log catches up, and
/// compacted groups let the log drop its old segments and bring a node that missed them up by snapshot.
@Suite(.serialized) struct ReplicationServiceTests {
    static let ids: [NodeID] = ["n1", "n2", "n3"]
    static let groups = (0..<4).map { RaftGroupID(UInt32($0)) }

    /// One node: its log, transport and service, and what it applied per group.
    final class Member: Sendable {
        let id: NodeID
        let directory: String
        let transport: PeerTransport
        /// Where the transport finds the current service (none while the node is down).
        let slot = Slot<ReplicationService>()
        let wal = Mutex<WriteAheadLog?>(nil)
        let run = Mutex<Task<Void, Never>?>(nil)
        let applied = Mutex<[RaftGroupID: [[UInt8]]]>([:])
        /// Per group: the application's latest snapshot (its commands so far) and the index it covers.
        let snapshots = Mutex<[RaftGroupID: RaftSnapshot]>([:])
        let appliedIndex = Mutex<[RaftGroupID: UInt64]>([:])
        let segmentBytes: Int

        init(_ id: NodeID, directory: String, segmentBytes: Int = WALConfiguration().segmentBytes) throws {
            self.id = id
            self.directory = directory
            self.segmentBytes = segmentBytes
            let configuration = PeerTransport.Configuration(
                node: id, cluster: "test", secret: PeerTransportHarness.secret,
                listenAddress: try SocketAddress(host: "127.0.0.1", port: 0))
            let slot = self.slot
            self.transport = try PeerTransport(configuration: configuration, log: Log(level: .critical)) {
                from, kind, payload in
                guard kind == PeerFrameKind.raft.rawValue else { return }
                slot.current?.receive(payload, from: from)
            }
        }

        /// Opens the log, recovers, and runs the service.
        func start() throws {
            var walConfiguration = WALConfiguration()
            walConfiguration.segmentBytes = self.segmentBytes
            let wal = try WriteAheadLog(directory: self.directory, configuration: walConfiguration) { _ in }
            let recovered = try ReplicationService.recover(wal)
            wal.start()
            let founding = Dictionary(
                uniqueKeysWithValues: ReplicationServiceTests.groups.map {
                    ($0, RaftMembership(voters: ReplicationServiceTests.ids))
                })
            let raft = try RaftConfiguration(electionTicks: 10)
            let transport = self.transport
            let io = ReplicationService.IO(
                send: { to, bytes in transport.send(bytes, kind: PeerFrameKind.raft.rawValue, to: to) },
                apply: { group, snapshot, entries in
                    if let snapshot {
                        self.snapshots.withLock { $0[group] = snapshot }
                        self.applied.withLock { $0[group] = snapshot.data.map { [$0] } }
                        self.appliedIndex.withLock { $0[group] = snapshot.metadata.index }
                    }
                    let commands = entries.compactMap { entry -> [UInt8]? in
                        if case .command(let data) = entry.payload { data } else { nil }
                    }
                    self.applied.withLock { $0[group, default: []] += commands }
                    if let last = entries.last { self.appliedIndex.withLock { $0[group] = last.index } }
                },
                latestSnapshot: { group in self.snapshots.withLock { $0[group] } })
            let service = try ReplicationService(
                configuration: .init(node: self.id, founding: founding, raft: raft, tickInterval: .milliseconds(10)),
                recovered: recovered, wal: wal, io: io, log: Log(level: .critical))
            self.wal.withLock { $0 = wal }
            self.slot.set(service)
            self.run.withLock { $0 = Task { try? await service.run() } }
        }

        /// Stops the service and closes the log (the transport stays, as a process's peers would redial it).
        func stop() async {
            let run = self.run.withLock { $0.take() }
            run?.cancel()
            await run?.value
            self.slot.set(nil)
            await self.wal.withLock { $0.take() }?.close()
        }

        func leads(_ group: RaftGroupID) -> ReplicationService? {
            guard let service = self.slot.current,
                service.host(group)?.softState.role == .leader
            else { return nil }
            return service
        }

        func applied(_ group: RaftGroupID) -> [[UInt8]] { self.applied.withLock { $0[group] ?? [] } }

        /// Snapshots `group`'s application (its one-byte commands, in order) where it stands, and compacts the log.
        func compact(_ group: RaftGroupID) async throws {
            guard let service = self.slot.current, let host = service.host(group) else { return }
            let index = self.appliedIndex.withLock { $0[group] ?? 0 }
            guard index > host.snapshotCut.index, let metadata = host.snapshotMetadata(at: index) else { return }
            let data = self.applied(group).compactMap(\.first)
            self.snapshots.withLock { $0[group] = RaftSnapshot(metadata: metadata, data: data) }
            #expect(await eventually(seconds: 30) { host.status.applied >= index })
            try await service.compact(group, through: index)
        }
    }

    /// Proposes `data` until an entry of it is applied: a leader that accepts an entry may lose its place before the
    /// entry commits, and then another leader's entry may take its index (Raft promises nothing for an entry it never
    /// committed; a loaded machine's election timeouts made that happen here). Whether the entry made it is known
    /// once some member has applied past its index, however long that takes on a starved machine; proposing again
    /// before then could apply it twice.
    private func propose(_ data: [UInt8], in group: RaftGroupID, members: [Member]) async -> Bool {
        await eventually(seconds: 60) {
            for member in members {
                guard let service = member.leads(group),
                    case .accepted(let index, _) = service.host(group)?.propose(data)
                else { continue }
                _ = await eventually(seconds: 60) {
                    members.contains { ($0.slot.current?.host(group)?.status.applied ?? 0) >= index }
                }
                return members.contains { $0.applied(group).contains(data) }
            }
            return false
        }
    }

    @Test(.timeLimit(.minutes(3))) func groupsCommitOnEveryNodeAndARestartedNodeCatchesUp() async throws {
        let directory = try TemporaryDirectory("replication")
        let members = try Self.ids.map { try Member($0, directory: directory.child($0.name)) }
        for member in members {
            for other in members where other !== member {
                member.transport.addPeer(other.id, at: try SocketAddress(host: "127.0.0.1", port: other.transport.port))
            }
        }
        for member in members { try member.start() }
        for group in Self.groups {
            for n in 0..<5 { #expect(await self.propose([UInt8(n)], in: group, members: members)) }
        }
        let expected = (0..<5).map { [UInt8($0)] }
        #expect(
            await eventually(seconds: 30) {
                members.allSatisfy { member in Self.groups.allSatisfy { member.applied($0) == expected } }
            })

        let restarted = members[1]
        await restarted.stop()
        restarted.applied.withLock { $0.removeAll() }
        for group in Self.groups { #expect(await self.propose([9], in: group, members: members)) }
        try restarted.start()
        #expect(
            await eventually(seconds: 30) {
                Self.groups.allSatisfy { restarted.applied($0) == expected + [[9]] }
            })
        for member in members {
            await member.stop()
            await member.transport.shutdown()
        }
        directory.remove()
    }

    @Test(.timeLimit(.minutes(3))) func compactedGroupsDropOldSegmentsAndCatchANodeUpBySnapshot() async throws {
        let directory = try TemporaryDirectory("replication-compaction")
        let members = try Self.ids.map { try Member($0, directory: directory.child($0.name), segmentBytes: 1_024) }
        for member in members {
            for other in members where other !== member {
                member.transport.addPeer(other.id, at: try SocketAddress(host: "127.0.0.1", port: other.transport.port))
            }
        }
        for member in members { try member.start() }
        let stopped = members[1]
        let running = [members[0], members[2]]
        for n in 0..<20 { #expect(await self.propose([UInt8(n)], in: Self.groups[0], members: members)) }
        await stopped.stop()
        stopped.applied.withLock { $0.removeAll() }
        for n in 20..<60 { #expect(await self.propose([UInt8(n)], in: Self.groups[0], members: running)) }
        let expected = (0..<60).map { [UInt8($0)] }
        #expect(await eventually(seconds: 30) { running.allSatisfy { $0.applied(Self.groups[0]) == expected } })
        for member in running { try await member.compact(Self.groups[0]) }
        // The other groups hold the first segments back with their elections' entries (which they snapshot when
        // asked) and then with their old hard states (which they write again when asked).
        for member in running {
            let wal = try #require(member.wal.withLock { $0 })
            #expect(
                await eventually(seconds: 30) {
                    for group in member.slot.current?.releaseLog() ?? [] { try? await member.compact(group) }
                    return wal.firstLSN > 1
                })
        }
        try stopped.start()
        #expect(await eventually(seconds: 30) { stopped.applied(Self.groups[0]) == expected })
        #expect(stopped.snapshots.withLock { $0[Self.groups[0]] } != nil, "it caught up by snapshot")
        // A node restarts from what its truncated log kept.
        let restarted = members[0]
        let cut = restarted.slot.current?.host(Self.groups[0])?.snapshotCut.index ?? 0
        await restarted.stop()
        try restarted.start()
        #expect(restarted.slot.current?.host(Self.groups[0])?.snapshotCut.index == cut)
        #expect(await self.propose([99], in: Self.groups[0], members: members))
        #expect(await eventually(seconds: 30) { members.allSatisfy { $0.applied(Self.groups[0]).last == [99] } })
        for member in members {
            await member.stop()
            await member.transport.shutdown()
        }
        directory.remove()
    }
}
