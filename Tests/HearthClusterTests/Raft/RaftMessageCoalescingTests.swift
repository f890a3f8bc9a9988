import HearthCluster
import Testing

/// A Ready's messages folded per peer (`RaftMessage.coalesced`): continuing appends become one, acceptances the
/// highest, and nothing else changes or moves within a peer's order.
@Suite struct RaftMessageCoalescingTests {
    private static let group = RaftGroupID(3)

    private func message(_ kind: RaftMessage.Kind, to peer: NodeID = "n2", term: UInt64 = 4) -> RaftMessage {
        RaftMessage(group: Self.group, from: "n1", to: peer, term: term, kind: kind)
    }

    private func entries(_ indexes: ClosedRange<UInt64>, term: UInt64 = 4) -> [RaftEntry] {
        indexes.map { RaftEntry(index: $0, term: term, payload: .command([UInt8(truncatingIfNeeded: $0)])) }
    }

    private func coalesced(_ messages: [RaftMessage], maxEntries: Int = 256, maxBytes: Int = 1 << 20)
        -> [RaftMessage]
    {
        RaftMessage.coalesced(messages, maxEntries: maxEntries, maxBytes: maxBytes)
    }

    /// Appends that continue one another, with an empty commit broadcast among them, become one append carrying
    /// every entry and the latest commit index.
    @Test func continuingAppendsFoldIntoOne() {
        let folded = self.coalesced([
            self.message(.append(prevIndex: 10, prevTerm: 4, entries: self.entries(11...11), commit: 9)),
            self.message(.append(prevIndex: 11, prevTerm: 4, entries: [], commit: 10)),
            self.message(.append(prevIndex: 11, prevTerm: 4, entries: self.entries(12...13), commit: 11)),
        ])
        #expect(
            folded == [self.message(.append(prevIndex: 10, prevTerm: 4, entries: self.entries(11...13), commit: 11))])
    }

    /// Each peer's messages fold on their own and keep their order; a message of another kind between two appends
    /// to the same peer keeps them apart.
    @Test func foldsPerPeerAndStopsAtOtherMessages() {
        let messages = [
            self.message(.append(prevIndex: 10, prevTerm: 4, entries: self.entries(11...11), commit: 10), to: "n2"),
            self.message(.append(prevIndex: 10, prevTerm: 4, entries: self.entries(11...11), commit: 10), to: "n3"),
            self.message(.heartbeat(commit: 10, context: []), to: "n3"),
            self.message(.append(prevIndex: 11, prevTerm: 4, entries: self.entries(12...12), commit: 10), to: "n2"),
            self.message(.append(prevIndex: 11, prevTerm: 4, entries: self.entries(12...12), commit: 10), to: "n3"),
        ]
        #expect(
            self.coalesced(messages) == [
                self.message(.append(prevIndex: 10, prevTerm: 4, entries: self.entries(11...12), commit: 10), to: "n2"),
                messages[1], messages[2], messages[4],
            ])
    }

    /// Appends that do not continue one another (a gap, another term, a retransmission from an earlier index) or
    /// that would pass the configured bounds together stay apart.
    @Test func appendsThatDoNotContinueStayApart() {
        let first = self.message(.append(prevIndex: 10, prevTerm: 4, entries: self.entries(11...12), commit: 10))
        let gap = self.message(.append(prevIndex: 13, prevTerm: 4, entries: self.entries(14...14), commit: 10))
        let otherTerm = self.message(.append(prevIndex: 12, prevTerm: 3, entries: self.entries(13...13), commit: 10))
        let resent = self.message(.append(prevIndex: 10, prevTerm: 4, entries: self.entries(11...11), commit: 10))
        let laterTerm = self.message(
            .append(prevIndex: 12, prevTerm: 4, entries: self.entries(13...13, term: 5), commit: 10), term: 5)
        for next in [gap, otherTerm, resent, laterTerm] {
            #expect(self.coalesced([first, next]) == [first, next])
        }
        let next = self.message(.append(prevIndex: 12, prevTerm: 4, entries: self.entries(13...13), commit: 10))
        #expect(self.coalesced([first, next], maxEntries: 2) == [first, next])
        #expect(self.coalesced([first, next], maxBytes: 1) == [first, next])
        #expect(self.coalesced([first, next], maxEntries: 3).count == 1)
    }

    /// A follower's acceptances in a row become the one naming the highest match; a rejection between them keeps
    /// them apart.
    @Test func acceptancesFoldIntoTheHighest() {
        let accepted = { (index: UInt64) in self.message(.appendAccepted(matchIndex: index), to: "n1") }
        #expect(self.coalesced([accepted(11), accepted(11), accepted(13), accepted(12)]) == [accepted(13)])
        let rejected = self.message(.appendRejected(rejectedIndex: 12, hintIndex: 11, hintTerm: 4), to: "n1")
        #expect(self.coalesced([accepted(11), rejected, accepted(12)]) == [accepted(11), rejected, accepted(12)])
    }

    /// Followers fed a leader's folded appends end with the same log and commit index as followers fed every
    /// append: several proposals taken before one Ready reach each follower as one append and one answer.
    @Test func foldedAppendsLeaveFollowersWhereEveryAppendWould() throws {
        var plain = try RaftHarness.elected(voters: ["n1", "n2", "n3"])
        var folded = plain
        folded.coalesces = true
        for index in 0..<5 {
            plain.with("n1") { node in for part in 0..<4 { _ = node.propose(Array("v\(index).\(part)".utf8)) } }
            folded.with("n1") { node in for part in 0..<4 { _ = node.propose(Array("v\(index).\(part)".utf8)) } }
            plain.deliverAll()
            folded.deliverAll()
        }
        plain.tickAll()
        folded.tickAll()
        for id: NodeID in ["n1", "n2", "n3"] {
            #expect(folded.commands(id).count == 20)
            #expect(folded.commands(id) == plain.commands(id))
            #expect(folded.node(id).log.committed == plain.node(id).log.committed)
        }
        let appends = { (harness: RaftHarness) in
            harness.sent.filter { if case .append = $0.kind { true } else { false } }.count
        }
        #expect(appends(folded) < appends(plain))
    }
}
