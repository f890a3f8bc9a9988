extension RaftMessage {
    /// The largest index or term a message may carry (2^63 − 1). No log gets near it, and below it every `+ 1`,
    /// `+ count` and `Int(...)` a node does with a peer's number stays in range, so a buggy or newer member cannot
    /// stop a replica by sending a number.
    public static let maxIndex = UInt64(Int64.max)

    /// Why a node refuses this message before looking at it (an index or term no log can reach, or an append whose
    /// entries do not follow its `prevIndex` one by one); nil for a well-formed message. A refused message changes
    /// nothing: it is dropped as if lost.
    public var refusal: String? {
        guard self.term <= Self.maxIndex else { return "term \(self.term) is beyond \(Self.maxIndex)" }
        let numbers: [(name: String, value: UInt64)]
        switch self.kind {
        case .append(let prevIndex, let prevTerm, let entries, let commit):
            if let problem = Self.appendRefusal(prevIndex: prevIndex, entries: entries, term: self.term) {
                return problem
            }
            numbers = [("prevIndex", prevIndex), ("prevTerm", prevTerm), ("commit", commit)]
        case .appendAccepted(let matchIndex):
            numbers = [("matchIndex", matchIndex)]
        case .appendRejected(let rejectedIndex, let hintIndex, let hintTerm):
            numbers = [("rejectedIndex", rejectedIndex), ("hintIndex", hintIndex), ("hintTerm", hintTerm)]
        case .vote(let lastIndex, let lastTerm, _), .preVote(let lastIndex, let lastTerm):
            numbers = [("lastIndex", lastIndex), ("lastTerm", lastTerm)]
        case .heartbeat(let commit, _):
            numbers = [("commit", commit)]
        case .installSnapshot(let snapshot):
            guard snapshot.metadata.term <= self.term else {
                return "snapshot term \(snapshot.metadata.term) is newer than the sender's term \(self.term)"
            }
            numbers = [("snapshot index", snapshot.metadata.index)]
        case .readIndexResponse(let index, _):
            numbers = [("read index", index)]
        case .voteResponse, .preVoteResponse, .heartbeatResponse, .timeoutNow, .readIndex:
            numbers = []
        }
        guard let large = numbers.first(where: { $0.value > Self.maxIndex }) else { return nil }
        return "\(large.name) \(large.value) is beyond \(Self.maxIndex)"
    }

    /// Why an append's entries cannot follow `prevIndex` in a log: they must be numbered `prevIndex + 1` on without
    /// gaps, end at or below `maxIndex`, and come from no term newer than the sender's.
    private static func appendRefusal(prevIndex: UInt64, entries: [RaftEntry], term: UInt64) -> String? {
        let (last, overflow) = prevIndex.addingReportingOverflow(UInt64(entries.count))
        guard !overflow, last <= Self.maxIndex else {
            return "\(entries.count) entries after prevIndex \(prevIndex) end beyond \(Self.maxIndex)"
        }
        for (offset, entry) in entries.enumerated() {
            guard entry.index == prevIndex + 1 + UInt64(offset) else {
                return "entry \(offset) after prevIndex \(prevIndex) has index \(entry.index); entries must follow "
                    + "prevIndex without gaps"
            }
            guard entry.term <= term else {
                return "entry \(entry.index) has term \(entry.term), newer than the sender's term \(term)"
            }
        }
        return nil
    }
}
