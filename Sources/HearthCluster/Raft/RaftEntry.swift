/// One slot of a Raft log: the term of the leader that created it, its position, and what it carries. A leader
/// starts its term with a `noop` entry (so entries of earlier terms can commit, Raft paper §5.4.2 / thesis §3.6.2);
/// `membership` entries carry the whole new replica set (thesis §4.1: it takes effect as soon as it is in a log).
public struct RaftEntry: Sendable, Equatable {
    /// What an entry carries; the application applies `command`s and may ignore the rest.
    public enum Payload: Sendable, Equatable {
        /// A leader's first entry of its term.
        case noop
        /// Bytes the application proposed.
        case command([UInt8])
        /// The replica set from this entry on.
        case membership(RaftMembership)
    }

    public var index: UInt64
    public var term: UInt64
    public var payload: Payload

    public init(index: UInt64, term: UInt64, payload: Payload) {
        self.index = index
        self.term = term
        self.payload = payload
    }

    /// A rough size on the wire, used to cap append batches by bytes.
    var approximateSize: Int {
        switch self.payload {
        case .noop: 17
        case .command(let bytes): 21 + bytes.count
        case .membership(let membership): 21 + 8 * (membership.voters.count + membership.learners.count)
        }
    }
}
