package import HearthCore
package import HearthWire

/// The client's sync engine: what it knows of the server's data, the writes it has not confirmed, the views
/// listeners watch and the transactions in flight. A pure value; the shell feeds it the user's commands and the
/// connection's `ServerEvent`s and carries out what each call returns.
///
/// It plays the part of Firebase's `SyncTree`, `WriteTree`, `SyncPoint`/`View` and `Repo` transaction queue, in
/// one simpler shape: every view is recomputed from the server cache and the pending writes when something near it
/// changes, and the events are the difference between what it showed and what it shows now (`EventDiff`). Every
/// mutating call returns a `SyncOutput`: commands for the connection, in the order to send them, and effects for
/// the shell (events, completions), in the order to deliver them.
package struct SyncEngine: Sendable {
    package internal(set) var server = ServerCache()
    package internal(set) var writes = WriteQueue()
    package internal(set) var views: [ViewKey: ViewState] = [:]
    package internal(set) var info = InfoData()
    /// The listens the connection was asked to hold; true once answered.
    package internal(set) var listens: [ListenKey: Bool] = [:]
    /// Listens whose whole location a push overwrote since they were sent, last answered, or the connection
    /// dropped: an answer to one of them came with its data.
    var pushedListens: Set<ListenKey> = []
    var listenerViews: [ListenerID: ViewKey] = [:]
    /// onDisconnect requests waiting for the server's answer.
    var onDisconnectRequests: [RequestToken: WireRequest] = [:]
    /// The onDisconnect writes the server accepted, oldest first; none lies below an older one's path.
    var onDisconnectWrites: [(path: Path, value: WriteValue)] = []
    /// The locations `keepSynced(true)` holds.
    var syncedPaths: Set<Path> = []
    /// Persistence is on: data stays cached after its listens end (`SyncEngine+Cache.swift`).
    package var retainsCache = false
    /// Locations whose data stays cached with no listen, with when each was last used.
    package internal(set) var retainedPaths: [Path: Int64] = [:]
    var transactions: [TransactionRecord] = []
    /// How long a transaction waits after a stale answer before it runs and is sent again.
    package var transactionBackoff = TransactionBackoff.standard
    /// Transaction queues (by root path) waiting out a back-off, until this local time in milliseconds.
    package internal(set) var transactionHolds: [Path: Int64] = [:]
    /// Draws the back-off waits.
    var random: EngineRandom
    /// The transactions each sent compare-and-set put carries.
    var transactionSends: [WriteID: [TransactionID]] = [:]
    /// The `get` requests waiting for the server, with what they read.
    var gets: [RequestToken: ViewKey] = [:]
    var nextWriteID: Int64 = 1
    /// The client id this engine names its writes with (`WriteOrigin`, with the write's number), so that a server
    /// applies each once however often it is sent; nil sends them unnamed, as Firebase's SDKs do.
    package var writeClient: String?
    var nextTag: Int64 = 1
    var nextTransactionOrder: Int64 = 1
    /// The local clock at the latest call that gave it, for server-value estimates in reruns.
    var lastNow: Int64 = 0
    /// What the current call has produced so far.
    var output = SyncOutput()
    /// Locations whose views must be recomputed before the call returns.
    var changedPaths: [Path] = []
    /// Completions to deliver after the call's events (Firebase calls them once the events are raised).
    var completions: [SyncEffect] = []

    /// - Parameter seed: seeds the back-off's random waits (a fixed seed replays them).
    package init(seed: UInt64 = 1) {
        self.random = EngineRandom(seed: seed)
    }

    /// When the shell should call `tick(now:)`: the end of the earliest back-off, if any.
    package var nextWake: Int64? { self.transactionHolds.values.min() }

    /// The clock has reached `now`: transaction queues whose back-off ended run and are sent.
    package mutating func tick(now: Int64) -> SyncOutput {
        self.producing { engine in
            engine.lastNow = max(engine.lastNow, now)
            let ended = engine.transactionHolds.filter { $0.value <= engine.lastNow }.keys.sorted()
            for root in ended {
                engine.transactionHolds[root] = nil
                engine.rerunTransactions(near: root)
            }
        }
    }

    /// Runs `body`, raises the events of every view it changed (each view once, so one call raises one batch per
    /// view in Firebase's order), then the completions, and hands back what it produced.
    mutating func producing(_ body: (inout SyncEngine) -> Void) -> SyncOutput {
        body(&self)
        self.refreshChangedViews()
        self.output.effects += self.completions
        self.completions = []
        defer { self.output = SyncOutput() }
        return self.output
    }

    mutating func makeWriteID() -> WriteID {
        defer { self.nextWriteID += 1 }
        return WriteID(self.nextWriteID)
    }

    /// The origin write `id` is sent with: `logged`, for a write made again from the write log after a restart;
    /// else this engine's client id and the write's number; nil without a client id.
    package func origin(of id: WriteID, logged: WriteOrigin? = nil) -> WriteOrigin? {
        if let logged { return logged }
        guard let client = self.writeClient, id.rawValue > 0 else { return nil }
        return try? WriteOrigin(client: client, sequence: UInt64(id.rawValue), settledBelow: 0)
    }

    mutating func send(_ command: ServerCommand) {
        self.output.commands.append(command)
    }

    mutating func emit(_ effect: SyncEffect) {
        self.output.effects.append(effect)
    }

    /// Queues a completion to deliver after this call's events.
    mutating func complete(_ effect: SyncEffect) {
        self.completions.append(effect)
    }

    /// The server's clock as this client estimates it, for server values in local events.
    func estimatedServerTime(now: Int64) -> Int64 {
        now &+ self.info.serverTimeOffset
    }
}

/// What one call into the engine produced.
package struct SyncOutput: Sendable {
    /// Requests for the connection, in order.
    package var commands: [ServerCommand] = []
    /// Things the shell delivers to the user, in order.
    package var effects: [SyncEffect] = []

    package init() {}
}

/// Something the shell delivers to the user.
package enum SyncEffect: Sendable, Equatable {
    /// Raise `event` to the listener.
    case event(ListenerID, DataEvent)
    /// The listener's listen failed or was revoked; it is removed and hears nothing more.
    case cancelled(ListenerID, WireProtocolError)
    /// A write was confirmed (nil) or refused (the server's error); its local events are already reverted.
    case writeCompleted(WriteID, WireProtocolError?)
    case transactionCompleted(TransactionID, TransactionOutcome)
    /// A `get` read this data (the server's when online, the cache's when offline) or failed.
    case getCompleted(RequestToken, Result<Node, WireProtocolError>)
    /// The server answered an onDisconnect request.
    case requestCompleted(RequestToken, WireResponse)
}
