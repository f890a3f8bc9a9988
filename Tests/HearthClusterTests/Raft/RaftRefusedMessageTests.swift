import HearthCluster
import Testing

/// A member that sends numbers no log can hold (a buggy or newer peer) cannot stop a replica: the message is
/// refused before it touches the node, which goes on as if it was lost.
@Suite struct RaftRefusedMessageTests {
    let n1: NodeID = "n1"
    let n2: NodeID = "n2"
    let n3: NodeID = "n3"

    /// What a test compares before and after a refused message.
    private struct Observed: Equatable {
        var term: UInt64
        var role: RaftRole
        var leader: NodeID?
        var votedFor: NodeID?
        var snapshot: RaftSnapshotMetadata
        var entries: [RaftEntry]
        var committed: UInt64
        var applied: UInt64
        var membership: RaftMembership

        init(_ node: RaftNode) {
            self.term = node.term
            self.role = node.role
            self.leader = node.leader
            self.votedFor = node.votedFor
            self.snapshot = node.log.snapshot
            self.entries = node.log.entries
            self.committed = node.log.committed
            self.applied = node.log.applied
            self.membership = node.membership
        }
    }

    /// Messages from the leader n1 (or, for votes, a would-be candidate) whose indexes or terms overflow a log's
    /// arithmetic, or whose entries do not follow their `prevIndex`.
    private func hostileMessages(term: UInt64, lastIndex: UInt64) -> [RaftMessage] {
        let membership = RaftMembership(voters: [n1, n2, n3])
        let entry = { (index: UInt64) in RaftEntry(index: index, term: term, payload: .command([1])) }
        let kinds: [(UInt64, RaftMessage.Kind)] = [
            (
                term,
                .installSnapshot(
                    RaftSnapshot(
                        metadata: RaftSnapshotMetadata(index: .max, term: term, membership: membership), data: []))
            ),
            (
                term,
                .installSnapshot(
                    RaftSnapshot(
                        metadata: RaftSnapshotMetadata(
                            index: RaftMessage.maxIndex + 1, term: term, membership: membership),
                        data: []))
            ),
            (
                term,
                .installSnapshot(
                    RaftSnapshot(
                        metadata: RaftSnapshotMetadata(index: lastIndex + 5, term: term + 1, membership: membership),
                        data: []))
            ),
            (term, .append(prevIndex: .max, prevTerm: term, entries: [entry(0)], commit: .max)),
            (term, .append(prevIndex: .max - 1, prevTerm: term, entries: [entry(.max), entry(0)], commit: 0)),
            (term, .append(prevIndex: lastIndex, prevTerm: term, entries: [entry(lastIndex + 2)], commit: 0)),
            (term, .append(prevIndex: lastIndex, prevTerm: term, entries: [entry(lastIndex)], commit: 0)),
            (
                term,
                .append(
                    prevIndex: lastIndex, prevTerm: term,
                    entries: [RaftEntry(index: lastIndex + 1, term: term + 1, payload: .noop)], commit: lastIndex + 1)
            ),
            (term, .append(prevIndex: lastIndex, prevTerm: term, entries: [], commit: .max)),
            (term, .heartbeat(commit: .max, context: [])),
            (term, .readIndexResponse(index: .max, context: [9])),
            (.max, .heartbeat(commit: 0, context: [])),
            (.max, .vote(lastIndex: .max, lastTerm: .max, transfer: true)),
            (RaftMessage.maxIndex + 1, .timeoutNow),
            (term, .vote(lastIndex: .max, lastTerm: term, transfer: true)),
        ]
        return kinds.map { RaftMessage(group: RaftHarness.group, from: n1, to: n2, term: $0.0, kind: $0.1) }
    }

    /// A follower fed each hostile message survives, and its term, vote, log, commit and membership are unchanged;
    /// it sends nothing in answer and still follows the leader's real appends afterwards.
    @Test func followerSurvivesAndIsUnchanged() throws {
        var harness = try RaftHarness.elected(voters: [n1, n2, n3])
        _ = harness.propose(n1, "a")
        harness.deliverAll()
        harness.tickAll()
        let follower = harness.node(n2)
        let before = Observed(follower)
        #expect(before.role == .follower && before.committed >= 2)
        for message in self.hostileMessages(term: follower.term, lastIndex: follower.log.lastIndex) {
            #expect(message.refusal != nil, "\(message.kind)")
            harness.with(n2) { $0.step(message) }
            #expect(Observed(harness.node(n2)) == before, "\(message.kind)")
            #expect(harness.inbox.isEmpty, "no answer to \(message.kind)")
            #expect(harness.readStates[n2, default: []].isEmpty)
        }
        _ = harness.propose(n1, "b")
        harness.deliverAll()
        harness.tickAll()
        #expect(harness.commands(n2) == ["a", "b"])
    }

    /// A leader fed the same messages (its followers' numbers included) keeps leading with its log intact.
    @Test func leaderSurvivesAndIsUnchanged() throws {
        var harness = try RaftHarness.elected(voters: [n1, n2, n3])
        let leader = harness.node(n1)
        let before = Observed(leader)
        let answers: [RaftMessage.Kind] = [
            .appendAccepted(matchIndex: .max), .appendRejected(rejectedIndex: .max, hintIndex: .max, hintTerm: .max),
        ]
        let fromFollower = answers.map {
            RaftMessage(group: RaftHarness.group, from: n2, to: n1, term: leader.term, kind: $0)
        }
        let turned = self.hostileMessages(term: leader.term, lastIndex: leader.log.lastIndex).map {
            RaftMessage(group: $0.group, from: n2, to: n1, term: $0.term, kind: $0.kind)
        }
        for message in fromFollower + turned {
            #expect(message.refusal != nil, "\(message.kind)")
            harness.with(n1) { $0.step(message) }
            #expect(Observed(harness.node(n1)) == before, "\(message.kind)")
        }
        #expect(harness.leaders == [n1])
    }

    /// Well-formed messages at the largest index allowed are not refused, and ordinary traffic never is.
    @Test func wellFormedMessagesAreNotRefused() throws {
        let top = RaftMessage.maxIndex
        let entry = RaftEntry(index: top, term: 3, payload: .noop)
        let kinds: [RaftMessage.Kind] = [
            .append(prevIndex: top - 1, prevTerm: 3, entries: [entry], commit: top),
            .appendAccepted(matchIndex: top), .heartbeat(commit: top, context: []),
            .readIndexResponse(index: top, context: []), .vote(lastIndex: top, lastTerm: 3, transfer: false),
        ]
        for kind in kinds {
            #expect(RaftMessage(group: RaftHarness.group, from: n1, to: n2, term: 3, kind: kind).refusal == nil)
        }
        var harness = try RaftHarness.elected(voters: [n1, n2, n3])
        for text in ["a", "b", "c"] { _ = harness.propose(n1, text) }
        harness.deliverAll()
        harness.tickAll()
        #expect(harness.sent.allSatisfy { $0.refusal == nil })
    }

    /// A persisted state whose log would end beyond the largest index is refused when the node starts, with a
    /// message, instead of trapping later.
    @Test func persistedStateBeyondTheLargestIndexIsRefused() throws {
        let state = RaftPersistentState(
            hardState: RaftHardState(term: 1),
            snapshot: RaftSnapshotMetadata(index: .max, term: 1, membership: RaftMembership(voters: [n1])),
            entries: [RaftEntry(index: 0, term: 1, payload: .noop)])
        #expect(throws: RaftError.self) {
            _ = try RaftNode(
                id: n1, group: RaftHarness.group, configuration: RaftConfiguration(), restoring: state, seed: 1)
        }
    }
}
