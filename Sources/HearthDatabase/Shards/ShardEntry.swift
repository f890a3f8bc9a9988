public import HearthCore
public import HearthWire

/// One entry of a shard's log: what every replica of the shard applies, in log order, to reach the same state.
///
/// Entries hold writes as the client sent them (server values unresolved) plus the leader's clock reading, so
/// applying an entry is a pure function of the shard's state before it: every replica resolves `increment` and
/// `timestamp` identically. A leader checks a compare-and-set before appending; the entry itself is
/// unconditional. See `ShardStateMachine.apply(_:at:)` for what each kind does.
public enum ShardEntry: Sendable {
    /// A write wholly inside this shard.
    case write(ShardWrite)
    /// Phase one of a multi-shard transaction: this shard's part, whose paths (and guards) stay locked until the
    /// decision.
    case prepare(TransactionID, ShardIntent)
    /// The transaction record, kept in the anchor's log: the decision, with the anchor's own part (the anchor
    /// never prepares: it locks and decides in one step, after every other participant prepared).
    case decide(TransactionID, commit: Bool, ShardIntent?)
    /// A participant other than the anchor learns the decision and finishes its part.
    case finish(TransactionID, commit: Bool)
    /// The anchor may forget these decisions: every participant finished its part (the coordinator saw every
    /// finish committed, or the resolver finished the parts it found).
    case forget([TransactionID])
    /// A transaction's part committed at once: every participant's part is in the same record of a log that
    /// orders every shard (one node's write-ahead log), written in one turn of the shards' shared executor, so
    /// there is nothing to prepare, decide or finish (`ShardActor.commitTogether`).
    case commit(TransactionID, ShardIntent)
}

/// The mutations of one write in one namespace, and the clock reading their server values resolve with.
public struct ShardWrite: Sendable {
    public var namespace: String
    public var mutations: [Mutation]
    /// Milliseconds since the Unix epoch, read once by the leader that accepted the write.
    public var now: Int64
    /// Who sent the write, when the client named it (`WriteOrigin`): the shard remembers it once applied, and the
    /// same write sent again is answered without being applied twice (`WriteSessions`). Spelled `Optional<…>`, not
    /// `WriteOrigin?`: a `var` of the sugared type starts as nil before the initializer runs, so the initializer
    /// assigned it over that and returned a copy of the whole write (every reference in it retained), destroying the
    /// value it built — once per write and per part.
    public var origin: Optional<WriteOrigin>

    public init(namespace: String, mutations: [Mutation], now: Int64, origin: WriteOrigin? = nil) {
        self.namespace = namespace
        self.mutations = mutations
        self.now = now
        self.origin = origin
    }

    /// Every path the write touches (locks and conflicts compare these).
    public var paths: [Path] { self.mutations.map(\.path) }
}

/// Who takes part in a transaction: recovery uses it to find the decision of a part left prepared.
public struct ShardTransactionPlan: Sendable, Equatable {
    /// The shard whose log holds the decision.
    public var anchor: Int
    /// Every participating shard, ascending; includes the anchor.
    public var participants: [Int]

    public init(anchor: Int, participants: [Int]) {
        self.anchor = anchor
        self.participants = participants
    }
}
