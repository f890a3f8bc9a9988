import HearthCluster
import Testing

/// A shell may keep feeding a node while a Ready is being made durable: `advance` then acknowledges only what that
/// Ready held.
@Suite struct RaftReadyPipeliningTests {
    static let group = RaftGroupID(1)

    private func follower() throws -> RaftNode {
        try RaftNode(
            id: "n2", group: Self.group, configuration: try RaftConfiguration(),
            restoring: .bootstrap(voters: ["n1", "n2", "n3"]), seed: 2)
    }

    private func append(term: UInt64, from leader: NodeID, after prev: (UInt64, UInt64), _ entries: [RaftEntry])
        -> RaftMessage
    {
        RaftMessage(
            group: Self.group, from: leader, to: "n2", term: term,
            kind: .append(prevIndex: prev.0, prevTerm: prev.1, entries: entries, commit: 0))
    }

    private func entry(_ index: UInt64, _ term: UInt64) -> RaftEntry {
        RaftEntry(index: index, term: term, payload: .command([UInt8(index), UInt8(term)]))
    }

    @Test func entriesReplacedBeforeAdvanceStayUnstable() throws {
        var node = try self.follower()
        node.step(
            self.append(term: 1, from: "n1", after: (0, 0), [self.entry(1, 1), self.entry(2, 1), self.entry(3, 1)]))
        let first = try #require(node.ready())
        #expect(first.entries.map(\.index) == [1, 2, 3])
        // While the shell persists `first`, a new leader overwrites entries 2 and 3.
        node.step(self.append(term: 2, from: "n3", after: (1, 1), [self.entry(2, 2), self.entry(3, 2)]))
        node.advance(first)
        let second = try #require(node.ready())
        #expect(second.entries.map(\.index) == [1, 2, 3] || second.entries.map(\.index) == [2, 3])
        #expect(second.entries.last?.term == 2)
        #expect(second.hardState?.term == 2)
        node.advance(second)
        #expect(node.ready()?.entries.isEmpty ?? true)
    }

    @Test func entriesAppendedBeforeAdvanceComeInTheNextReady() throws {
        var node = try self.follower()
        node.step(self.append(term: 1, from: "n1", after: (0, 0), [self.entry(1, 1)]))
        let first = try #require(node.ready())
        node.step(self.append(term: 1, from: "n1", after: (1, 1), [self.entry(2, 1)]))
        node.advance(first)
        let second = try #require(node.ready())
        #expect(second.entries.map(\.index) == [2])
        #expect(second.messages.count == 1)
    }
}
