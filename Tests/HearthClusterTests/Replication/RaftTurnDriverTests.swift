import HearthTestKit
import Synchronization
import Testing

@testable import HearthCluster

/// One driver for every Raft group of a node: a turn takes every marked group's Ready and appends all their records
/// at once, with one wait; a hard state whose only change is the commit index is written without waiting for the disk.
@Suite struct RaftTurnDriverTests {
    /// The appends a driver made, in order: what it wrote without waiting, and what it waited for; and what each
    /// group applied.
    final class Disk: Sendable {
        let calls = Mutex<[(lazily: [RaftLogRecord], durably: [RaftLogRecord])]>([])
        let applied = Mutex<[RaftGroupID: [[UInt8]]]>([:])
    }

    /// A single-voter group's host, driven through `signal`, applying into `disk`.
    private func host(_ group: RaftGroupID, signal: RaftTurnSignal, disk: Disk) throws -> RaftGroupHost {
        let node = try RaftNode(
            id: "n1", group: group, configuration: try RaftConfiguration(), restoring: .bootstrap(voters: ["n1"]),
            seed: UInt64(group.rawValue) + 1)
        let io = RaftGroupHost.IO(
            persist: { _ in Issue.record("a driven host persists through its driver") },
            send: { _ in },
            apply: { _, entries in
                for entry in entries {
                    guard case .command(let data) = entry.payload else { continue }
                    disk.applied.withLock { $0[group, default: []].append(data) }
                }
            },
            latestSnapshot: { nil },
            observe: { _ in })
        return RaftGroupHost(node: node, io: io, signal: signal)
    }

    /// Marks are kept once each, in the order they were first made, and taking them clears them.
    @Test func marksAreTakenOnceInTheirOrder() {
        let signal = RaftTurnSignal()
        signal.mark(RaftGroupID(2))
        signal.mark(RaftGroupID(1))
        signal.mark(RaftGroupID(2))
        #expect(signal.take() == [RaftGroupID(2), RaftGroupID(1)])
        #expect(signal.take().isEmpty)
        signal.mark(RaftGroupID(1))
        #expect(signal.take() == [RaftGroupID(1)])
    }

    /// Two groups with work waiting are appended in one call (one write, one fsync), their entries waited for; the
    /// commit that follows is written without a wait, and both groups apply their proposals.
    @Test(.timeLimit(.minutes(1))) func oneTurnPersistsEveryGroupAndCommitsLazily() async throws {
        let signal = RaftTurnSignal()
        let disk = Disk()
        let groups = [RaftGroupID(1), RaftGroupID(2)]
        var hosts: [RaftGroupID: RaftGroupHost] = [:]
        for group in groups {
            let host = try self.host(group, signal: signal, disk: disk)
            try host.withNode { $0.campaign(preVote: false, transfer: false) }
            guard case .accepted = host.propose([UInt8(group.rawValue)]) else {
                Issue.record("group \(group.rawValue) did not lead after its campaign")
                return
            }
            hosts[group] = host
        }
        let driver = RaftTurnDriver(
            hosts: hosts, signal: signal,
            append: { lazily, durably in
                disk.calls.withLock { calls in
                    calls.append((lazily, durably))
                    return durably.isEmpty ? 0 : UInt64(calls.count)
                }
            },
            waitUntilDurable: { _ in })
        let run = Task { try await driver.run() }
        #expect(
            await eventually(seconds: 30) {
                disk.applied.withLock { $0 } == [RaftGroupID(1): [[1]], RaftGroupID(2): [[2]]]
            })
        for host in hosts.values { host.stop() }
        try await run.value
        let calls = disk.calls.withLock { $0 }
        let first = try #require(calls.first)
        let entriesGroups = Set(
            first.durably.compactMap { record -> Int? in
                if case .entries(let group, _, _) = record { return group }
                return nil
            })
        #expect(entriesGroups == [1, 2])
        #expect(first.lazily.isEmpty)
        #expect(
            calls.dropFirst().contains { call in
                call.durably.isEmpty && !call.lazily.isEmpty
                    && call.lazily.allSatisfy { if case .hardState = $0 { true } else { false } }
            })
    }
}
