import HearthCluster
import HearthTestKit
import Synchronization
import Testing

/// Three hosts of one group over an in-memory network and in-memory durable logs, in real time: what the shell
/// around a `RaftNode` must get right (persist before send, apply in order, keep taking input during persistence).
/// The waits are long because the suite's CPU-heavy tests can hold the cooperative pool for seconds; they end as
/// soon as the condition holds.
@Suite struct RaftGroupHostTests {
    static let group = RaftGroupID(3)
    static let ids: [NodeID] = ["n1", "n2", "n3"]

    /// The hosts, their durable records, what each applied, and which nodes are cut off.
    final class Cluster: Sendable {
        let hosts = Mutex<[NodeID: RaftGroupHost]>([:])
        let disks = Mutex<[NodeID: [RaftLogRecord]]>([:])
        let applied = Mutex<[NodeID: [[UInt8]]]>([:])
        let isolated = Mutex<Set<NodeID>>([])
        let runs = Mutex<[NodeID: Task<Void, Never>]>([:])
        /// How many read-index requests followers forwarded to a leader.
        let forwardedReads = Mutex(0)
        /// A command each node's application cannot apply (it throws `RaftApplyHalt` there).
        let unreadable = Mutex<[NodeID: [UInt8]]>([:])

        func start(_ id: NodeID, restoring state: RaftPersistentState, seed: UInt64) throws {
            let node = try RaftNode(
                id: id, group: RaftGroupHostTests.group, configuration: try RaftConfiguration(), restoring: state,
                seed: seed)
            let io = RaftGroupHost.IO(
                persist: { records in
                    try await Task.sleep(for: .microseconds(300))
                    self.disks.withLock { $0[id, default: []] += records }
                },
                send: { message in
                    if case .readIndex = message.kind { self.forwardedReads.withLock { $0 += 1 } }
                    let cut = self.isolated.withLock { $0.contains(message.from) || $0.contains(message.to) }
                    guard !cut, let target = self.hosts.withLock({ $0[message.to] }) else { return }
                    target.step(message)
                },
                apply: { _, entries in
                    let poison = self.unreadable.withLock { $0[id] }
                    for entry in entries {
                        guard case .command(let data) = entry.payload else { continue }
                        if data == poison {
                            throw RaftApplyHalt(
                                group: RaftGroupHostTests.group, index: entry.index, term: entry.term, reason: "test")
                        }
                        self.applied.withLock { $0[id, default: []].append(data) }
                    }
                },
                latestSnapshot: { nil },
                observe: { _ in })
            let host = RaftGroupHost(node: node, io: io)
            self.hosts.withLock { $0[id] = host }
            let run = Task {
                await withDiscardingTaskGroup { group in
                    group.addTask { try? await host.run() }
                    group.addTask {
                        while !Task.isCancelled {
                            try? await Task.sleep(for: .milliseconds(10))
                            host.tick()
                        }
                        host.stop()
                    }
                }
            }
            self.runs.withLock { $0[id] = run }
        }

        func stop(_ id: NodeID) async {
            let run = self.runs.withLock { $0.removeValue(forKey: id) }
            self.hosts.withLock { _ = $0.removeValue(forKey: id) }
            run?.cancel()
            await run?.value
        }

        func stopAll() async {
            for id in RaftGroupHostTests.ids { await self.stop(id) }
        }

        func leader(excluding excluded: Set<NodeID> = []) -> RaftGroupHost? {
            self.hosts.withLock { $0 }.first { id, host in
                !excluded.contains(id) && host.softState.role == .leader
            }?.value
        }

        /// Proposes `data` on the current leader until one accepts.
        func propose(_ data: [UInt8], excluding excluded: Set<NodeID> = []) async -> Bool {
            await eventually(seconds: 30) {
                guard let leader = self.leader(excluding: excluded) else { return false }
                if case .accepted = leader.propose(data) { return true }
                return false
            }
        }

        func appliedBy(_ id: NodeID) -> [[UInt8]] { self.applied.withLock { $0[id] ?? [] } }
    }

    private func startAll(_ cluster: Cluster) throws {
        for (offset, id) in Self.ids.enumerated() {
            try cluster.start(id, restoring: .bootstrap(voters: Self.ids), seed: UInt64(offset + 1))
        }
    }

    @Test(.timeLimit(.minutes(1))) func proposalsCommitEverywhereInOneOrder() async throws {
        let cluster = Cluster()
        try self.startAll(cluster)
        let commands = (0..<50).map { [UInt8($0)] }
        for command in commands { #expect(await cluster.propose(command)) }
        #expect(await eventually(seconds: 30) { Self.ids.allSatisfy { cluster.appliedBy($0) == commands } })
        await cluster.stopAll()
    }

    @Test(.timeLimit(.minutes(1))) func anIsolatedLeaderIsReplacedAndCatchesUpAfterHealing() async throws {
        let cluster = Cluster()
        try self.startAll(cluster)
        #expect(await cluster.propose([1]))
        #expect(await eventually(seconds: 30) { Self.ids.allSatisfy { cluster.appliedBy($0) == [[1]] } })
        let first = try #require(cluster.hosts.withLock { $0 }.first { $0.value.softState.role == .leader }?.key)
        cluster.isolated.withLock { _ = $0.insert(first) }
        #expect(await cluster.propose([2], excluding: [first]))
        #expect(await cluster.propose([3], excluding: [first]))
        let others = Self.ids.filter { $0 != first }
        #expect(await eventually(seconds: 30) { others.allSatisfy { cluster.appliedBy($0) == [[1], [2], [3]] } })
        cluster.isolated.withLock { $0.removeAll() }
        #expect(await eventually(seconds: 30) { cluster.appliedBy(first) == [[1], [2], [3]] })
        await cluster.stopAll()
    }

    @Test(.timeLimit(.minutes(1))) func aRestartedReplicaResumesFromItsRecords() async throws {
        let cluster = Cluster()
        try self.startAll(cluster)
        for n in 0..<10 { #expect(await cluster.propose([UInt8(n)])) }
        #expect(await eventually(seconds: 30) { cluster.appliedBy("n2").count == 10 })
        await cluster.stop("n2")
        var replay = RaftLogReplay()
        let founding = RaftPersistentState.bootstrap(voters: Self.ids)
        try replay.apply(RaftGroupStorage.snapshotRecord(founding.snapshot, group: Self.group))
        for record in cluster.disks.withLock({ $0["n2"] ?? [] }) { try replay.apply(record) }
        let recovered = try #require(try replay.finish()[Int(Self.group.rawValue)])
        let state = try RaftGroupStorage.persistentState(recovered, group: Self.group)
        #expect(state.entries.count >= 10)
        cluster.applied.withLock { $0["n2"] = [] }
        try cluster.start("n2", restoring: state, seed: 42)
        for n in 10..<15 { #expect(await cluster.propose([UInt8(n)])) }
        #expect(await eventually(seconds: 30) { cluster.appliedBy("n2") == (0..<15).map { [UInt8($0)] } })
        await cluster.stopAll()
    }

    /// A committed entry one replica cannot apply stops that replica alone: it keeps what it applied before the
    /// entry, applies nothing after it, says why, and the other two go on committing and applying.
    @Test(.timeLimit(.minutes(1))) func anEntryOneReplicaCannotApplyHaltsThatReplicaAlone() async throws {
        let cluster = Cluster()
        cluster.unreadable.withLock { $0["n3"] = [0xFF] }
        try self.startAll(cluster)
        #expect(await cluster.propose([1]))
        #expect(await cluster.propose([0xFF]))
        let halted = try #require(cluster.hosts.withLock { $0["n3"] })
        #expect(await eventually(seconds: 30) { halted.halt != nil })
        #expect(halted.halt?.reason == "test")
        for n in 2..<6 { #expect(await cluster.propose([UInt8(n)], excluding: ["n3"])) }
        let expected: [[UInt8]] = [[1], [0xFF], [2], [3], [4], [5]]
        #expect(await eventually(seconds: 30) { ["n1", "n2"].allSatisfy { cluster.appliedBy($0) == expected } })
        #expect(cluster.appliedBy("n3") == [[1]])
        #expect(halted.propose([9]) == .notLeader(leaderHint: nil))
        await cluster.stopAll()
    }

    /// One host alone, with what it did in order: the records it persisted and what it handed the application.
    final class Transcript: Sendable {
        let events = Slot<[String]>()
        let host: RaftGroupHost

        /// - Parameter unreadableSnapshot: snapshot data the application cannot install (it throws `RaftApplyHalt`).
        init(unreadableSnapshot: [UInt8]? = nil) throws {
            let node = try RaftNode(
                id: "n2", group: RaftGroupHostTests.group, configuration: try RaftConfiguration(),
                restoring: .bootstrap(voters: RaftGroupHostTests.ids), seed: 2)
            let events = self.events
            events.set([])
            self.host = RaftGroupHost(
                node: node,
                io: RaftGroupHost.IO(
                    persist: { records in
                        let kinds = records.map { record in
                            switch record {
                            case .hardState: "hardState"
                            case .entries: "entries"
                            case .snapshot(_, let index, _): "snapshot@\(index)"
                            }
                        }
                        events.set((events.current ?? []) + ["persist " + kinds.joined(separator: ",")])
                    },
                    send: { _ in },
                    apply: { snapshot, entries in
                        if let snapshot, snapshot.data == unreadableSnapshot {
                            throw RaftApplyHalt(
                                group: RaftGroupHostTests.group, index: snapshot.metadata.index,
                                term: snapshot.metadata.term, reason: "unreadable snapshot")
                        }
                        if let snapshot { events.set((events.current ?? []) + ["install@\(snapshot.metadata.index)"]) }
                        if !entries.isEmpty { events.set((events.current ?? []) + ["apply"]) }
                    },
                    latestSnapshot: { nil },
                    observe: { _ in }))
        }
    }

    /// A snapshot from the leader reaches the application (which stores it) before the records that make the log
    /// start there: a crash in between leaves a stored snapshot newer than the log, never the reverse.
    @Test(.timeLimit(.minutes(1))) func aReceivedSnapshotIsInstalledBeforeTheLogRecordsIt() async throws {
        let transcript = try Transcript()
        let run = Task { try? await transcript.host.run() }
        let snapshot = RaftSnapshot(
            metadata: RaftSnapshotMetadata(index: 7, term: 2, membership: RaftMembership(voters: Self.ids)),
            data: [1, 2, 3])
        transcript.host.step(
            RaftMessage(group: Self.group, from: "n1", to: "n2", term: 2, kind: .installSnapshot(snapshot)))
        #expect(await eventually(seconds: 30) { (transcript.events.current ?? []).count >= 2 })
        #expect(transcript.events.current == ["install@7", "persist snapshot@7,hardState"])
        transcript.host.stop()
        await run.value
    }

    /// A snapshot the application cannot install halts the replica before anything of its Ready is persisted: the log
    /// never records a cut whose state the application does not hold, and the replica takes nothing more.
    @Test(.timeLimit(.minutes(1))) func aSnapshotTheApplicationCannotInstallHaltsBeforeTheLogRecordsIt() async throws {
        let transcript = try Transcript(unreadableSnapshot: [0xEE])
        let run = Task { try? await transcript.host.run() }
        let snapshot = RaftSnapshot(
            metadata: RaftSnapshotMetadata(index: 7, term: 2, membership: RaftMembership(voters: Self.ids)),
            data: [0xEE])
        transcript.host.step(
            RaftMessage(group: Self.group, from: "n1", to: "n2", term: 2, kind: .installSnapshot(snapshot)))
        #expect(await eventually(seconds: 30) { transcript.host.halt != nil })
        #expect(transcript.host.halt?.index == 7 && transcript.host.halt?.term == 2)
        transcript.host.rewriteDurableState()
        try await Task.sleep(for: .milliseconds(50))
        #expect(transcript.events.current == [], "nothing persisted or applied after the halt")
        #expect(transcript.host.propose([1]) == .notLeader(leaderHint: nil))
        transcript.host.stop()
        await run.value
    }

    /// An idle group asked to write its state again persists its snapshot marker and hard state as they stand.
    @Test(.timeLimit(.minutes(1))) func anIdleGroupRewritesItsDurableState() async throws {
        let transcript = try Transcript()
        let run = Task { try? await transcript.host.run() }
        transcript.host.rewriteDurableState()
        #expect(await eventually(seconds: 30) { !(transcript.events.current ?? []).isEmpty })
        #expect(transcript.events.current == ["persist snapshot@0,hardState"])
        transcript.host.stop()
        await run.value
    }
}
