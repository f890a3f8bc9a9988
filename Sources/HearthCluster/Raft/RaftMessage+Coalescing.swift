extension RaftMessage {
    /// `messages` with each run of messages to one peer that says the same thing twice folded into one, so a
    /// Ready sends one frame where it would have sent several in a row:
    /// - a leader's appends that continue one another (the second's `prevIndex` and `prevTerm` are the first's
    ///   last entry, or its own previous position when it carries none) become one append carrying both runs of
    ///   entries and the later commit index, within `maxEntries` and `maxBytes` (`RaftConfiguration`'s bounds);
    /// - a follower's acceptances become the one naming the highest match.
    ///
    /// Only messages of one group and term that follow each other among those to their peer are folded; the order
    /// of every peer's messages is kept. Folding is safe by construction: a follower that gets the folded append
    /// ends where the two in a row would leave it (the same entries, the same commit), and dropping an acceptance
    /// that a higher one follows is a lost message, which Raft tolerates.
    package static func coalesced(_ messages: [RaftMessage], maxEntries: Int, maxBytes: Int) -> [RaftMessage] {
        guard messages.count > 1 else { return messages }
        var folded: [RaftMessage] = []
        folded.reserveCapacity(messages.count)
        // Where each peer's latest message sits in `folded`.
        var latest: [NodeID: Int] = [:]
        for message in messages {
            if let position = latest[message.to],
                let joined = folded[position].joined(with: message, maxEntries: maxEntries, maxBytes: maxBytes)
            {
                folded[position] = joined
                continue
            }
            latest[message.to] = folded.count
            folded.append(message)
        }
        return folded
    }

    /// This message and `next` (sent right after it to the same peer) as one, or nil when they do not fold.
    private func joined(with next: RaftMessage, maxEntries: Int, maxBytes: Int) -> RaftMessage? {
        guard self.group == next.group, self.from == next.from, self.term == next.term else { return nil }
        switch (self.kind, next.kind) {
        case (.appendAccepted(let first), .appendAccepted(let second)):
            var joined = self
            joined.kind = .appendAccepted(matchIndex: max(first, second))
            return joined
        case (
            .append(let prevIndex, let prevTerm, let entries, let commit),
            .append(let nextPrevIndex, let nextPrevTerm, let nextEntries, let nextCommit)
        ):
            let (lastIndex, overflow) = prevIndex.addingReportingOverflow(UInt64(entries.count))
            guard !overflow, nextPrevIndex == lastIndex, nextPrevTerm == (entries.last?.term ?? prevTerm),
                entries.count + nextEntries.count <= maxEntries
            else { return nil }
            if !entries.isEmpty && !nextEntries.isEmpty {
                let bytes =
                    entries.reduce(0) { $0 + $1.approximateSize } + nextEntries.reduce(0) { $0 + $1.approximateSize }
                guard bytes <= maxBytes else { return nil }
            }
            var joined = self
            joined.kind = .append(
                prevIndex: prevIndex, prevTerm: prevTerm, entries: entries + nextEntries,
                commit: max(commit, nextCommit))
            return joined
        default:
            return nil
        }
    }
}
