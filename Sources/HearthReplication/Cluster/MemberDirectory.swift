import HearthCluster
import HearthCore
import HearthDatabase
import HearthStorage
import HearthSystem

/// This node's replica of the cluster's member list: the member-list group's (`RaftGroupID.members`) committed
/// changes applied to a `MemberList`, which starts from the founding configuration's nodes.
///
/// Every node hosts the group (voters as `MemberList.memberGroupVoters` says, every other member a learner), so
/// every node knows every member's addresses, durably: a restart recovers the list from the node's write-ahead log
/// and its stored member-list snapshot, as a shard recovers. The group's log is compacted into that snapshot
/// whenever it has applied something new (`compactIfDue`): a member that joins gets the list by snapshot, and the
/// group never holds old segments of the write-ahead log back.
///
/// Who proposes changes, and how they wait for them, is `ReplicatedDatabase+Members.swift`.
final class MemberDirectory: Sendable {
    /// What the directory holds, under one lock.
    struct State {
        var list: MemberList
        /// The Raft index through which the group's committed entries are applied.
        var delivered: UInt64
        /// The Raft index of the latest stored snapshot of the list.
        var snapshotIndex: UInt64
        /// The outcome of each recently applied change, with the term of its entry, by Raft index: a proposer learns
        /// from it whether its own entry was the one committed there.
        var outcomes: [UInt64: (term: UInt64, outcome: MemberChangeOutcome)] = [:]
    }

    /// How many applied changes keep their outcome for proposers to read.
    static let outcomesKept = 256

    let shelf: RaftSnapshotShelf
    private let state: Lock<State>
    /// Called, outside the lock, with the new list after every batch of changes that changed it.
    private let listeners = Lock<[@Sendable (MemberList) -> Void]>([])

    private init(shelf: RaftSnapshotShelf, state: State) {
        self.shelf = shelf
        self.state = Lock(state)
    }

    /// The list as this replica has applied it.
    var list: MemberList { self.state.withLock { $0.list } }

    /// The Raft index through which this replica has applied the group's committed entries.
    var delivered: UInt64 { self.state.withLock { $0.delivered } }

    /// Calls `listener` after every applied batch that changed the list.
    func onChange(_ listener: @escaping @Sendable (MemberList) -> Void) {
        self.listeners.withLock { $0.append(listener) }
    }

    /// What became of a proposed change, as this replica knows it.
    enum Applied: Equatable {
        /// The replica has not applied through its index yet.
        case pending
        /// Its entry committed, with this outcome.
        case applied(MemberChangeOutcome)
        /// Another entry (a later leader's) took its index: it was not committed.
        case replaced
        /// Its index was applied long ago, or came with a snapshot: the proposer judges from the list itself.
        case unknown
    }

    /// What became of the change proposed at `index` in `term`.
    func applied(index: UInt64, term: UInt64) -> Applied {
        self.state.withLock { state in
            guard state.delivered >= index else { return .pending }
            guard let recorded = state.outcomes[index] else {
                let oldest = state.outcomes.keys.min() ?? state.delivered + 1
                return index <= state.snapshotIndex || index < oldest ? .unknown : .replaced
            }
            return recorded.term == term ? .applied(recorded.outcome) : .replaced
        }
    }

    /// Applies the group's committed entries in order (its host's run loop calls this once per Ready).
    /// - Throws: `CommitRecordError` when a command is not a member change (the log is damaged).
    func committed(_ entries: [RaftEntry]) throws {
        let changed = try self.state.withLock { state throws -> MemberList? in
            var changed = false
            for entry in entries where entry.index > state.delivered {
                state.delivered = entry.index
                guard case .command(let bytes) = entry.payload else { continue }
                let change: MemberChange
                do throws(BinaryDecodingError) {
                    change = try MemberChange(decoding: bytes)
                } catch {
                    throw CommitRecordError(
                        "entry \(entry.index) of the member list is not a member change: \(error.detail)")
                }
                let outcome = state.list.apply(change, at: entry.index)
                if outcome == .changed { changed = true }
                state.outcomes[entry.index] = (entry.term, outcome)
            }
            if state.outcomes.count > Self.outcomesKept {
                for index in state.outcomes.keys.sorted().dropLast(Self.outcomesKept) { state.outcomes[index] = nil }
            }
            return changed ? state.list : nil
        }
        if let changed { self.announce(changed) }
    }

    /// Replaces the list with the one in `snapshot`, from the group's leader, after storing it durably.
    /// - Throws: `CommitRecordError` when the snapshot is not a member list; `StorageError` when it cannot be stored.
    func install(_ snapshot: RaftSnapshot) throws {
        let list: MemberList
        do {
            list = try MemberList(decoding: snapshot.data)
        } catch {
            throw CommitRecordError("the member list's snapshot cannot be read: \(error.detail)")
        }
        try self.shelf.write(snapshot)
        self.state.withLock { state in
            state.list = list
            state.delivered = max(state.delivered, snapshot.metadata.index)
            state.snapshotIndex = snapshot.metadata.index
            state.outcomes.removeAll()
        }
        self.announce(list)
    }

    /// The latest stored snapshot, for a member too far behind the group's log (nil when there is none yet).
    func latestSnapshot() -> RaftSnapshot? {
        try? self.shelf.latest()
    }

    /// Stores the list as it stands and compacts the group's log there, when the replica has applied entries since
    /// the last snapshot (and its host has recorded them applied).
    /// - Throws: `StorageError` when the snapshot or the log's cut cannot be made durable.
    func compactIfDue(service: ReplicationService) async throws {
        guard let host = service.host(.members) else { return }
        let (list, index, last) = self.state.withLock { ($0.list, $0.delivered, $0.snapshotIndex) }
        guard index > last, host.status.applied >= index, let metadata = host.snapshotMetadata(at: index) else {
            return
        }
        try self.shelf.write(RaftSnapshot(metadata: metadata, data: list.encoded()))
        do {
            try await service.compact(.members, through: index)
        } catch is RaftError {
            // A snapshot from the leader moved the log past `index` meanwhile; the next round compacts.
            return
        }
        self.state.withLock { $0.snapshotIndex = max($0.snapshotIndex, index) }
    }

    private func announce(_ list: MemberList) {
        for listener in self.listeners.withLock({ $0 }) { listener(list) }
    }
}

extension MemberDirectory {
    /// Restores the list from the latest stored snapshot (if any) and the entries the group had committed after it
    /// in `recovered`, starting from `founding` when there is no snapshot. Like a shard's recovery, a stored snapshot
    /// newer than the log's own cut (the node stopped between storing a leader's snapshot and recording it) makes the
    /// group start there; its metadata is returned to be recorded once the group runs.
    /// - Throws: `CommitRecordError` when the snapshot and the log do not fit together or cannot be read;
    ///   `StorageError` when the snapshot file is damaged.
    static func recover(
        founding: MemberList, directory: String, recovered: inout ReplicationService.Recovered,
        fileSystem: any FileSystem = PosixFileSystem()
    ) throws -> (MemberDirectory, unrecorded: RaftSnapshotMetadata?) {
        let shelf = try RaftSnapshotShelf(
            directory: directory + "/snapshots/members", name: "the member list", fileSystem: fileSystem)
        var state = State(list: founding, delivered: 0, snapshotIndex: 0)
        guard var group = recovered[.members] else {
            guard try shelf.latestIndex() == 0 else {
                throw CommitRecordError(
                    "the member list has a stored snapshot but the write-ahead log holds nothing of its group; the log "
                        + "was lost")
            }
            return (MemberDirectory(shelf: shelf, state: state), nil)
        }
        var unrecorded: RaftSnapshotMetadata?
        if let stored = try shelf.latest() {
            let metadata = stored.metadata
            guard metadata.index >= group.snapshot.index else {
                throw CommitRecordError(
                    "the member list's log starts after entry \(group.snapshot.index) but its newest stored snapshot is "
                        + "at \(metadata.index); the snapshot that log needs is missing")
            }
            do {
                state.list = try MemberList(decoding: stored.data)
            } catch {
                throw CommitRecordError("the member list's stored snapshot cannot be read: \(error.detail)")
            }
            if metadata.index > group.snapshot.index {
                let keeps = group.entries.contains { $0.index == metadata.index && $0.term == metadata.term }
                group.entries = keeps ? group.entries.filter { $0.index > metadata.index } : []
                group.snapshot = metadata
                group.hardState.commit = max(group.hardState.commit, metadata.index)
                recovered[.members] = group
                unrecorded = metadata
            }
            state.delivered = metadata.index
            state.snapshotIndex = metadata.index
        } else if group.snapshot.index > 0 {
            throw CommitRecordError(
                "the member list's log starts after entry \(group.snapshot.index) but no snapshot of it is stored")
        }
        let directory = MemberDirectory(shelf: shelf, state: state)
        let commit = group.hardState.commit
        try directory.committed(group.entries.filter { $0.index <= commit })
        return (directory, unrecorded)
    }
}
