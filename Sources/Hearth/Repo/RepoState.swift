import HearthCore
import HearthWire

/// What the repo's queue owns: the engine and the app's callbacks waiting for what the engine produces.
struct RepoState: Sendable {
    /// Seeded at random, so that clients in one process draw different back-offs, and naming its writes with a
    /// client id of its own, so that a server applies each once (`WriteOrigin`).
    var engine: SyncEngine = {
        var generator = SystemRandomNumberGenerator()
        var engine = SyncEngine(seed: generator.next())
        engine.writeClient = WriteOrigin.randomClient(using: &generator)
        return engine
    }()
    /// With persistence: the writes in the log not yet finished.
    var loggedWrites: Set<WriteID> = []
    /// With persistence: a cache save is scheduled and will take every change made until it runs.
    var isCacheSaveScheduled = false
    /// The engine's wake-up a timer is set for.
    var scheduledWake: Int64?
    var listeners: [ListenerID: ListenerRegistration] = [:]
    var writes: [WriteID: @Sendable (WireProtocolError?) -> Void] = [:]
    var transactions: [TransactionID: @Sendable (TransactionOutcome) -> Void] = [:]
    var gets: [RequestToken: @Sendable (Result<Node, WireProtocolError>) -> Void] = [:]
    var requests: [RequestToken: @Sendable (WireResponse) -> Void] = [:]

    /// The engine's next wake-up when no timer is set for it or the one set is later.
    mutating func scheduleWake() -> Int64? {
        guard let wake = self.engine.nextWake, self.scheduledWake.map({ wake < $0 }) ?? true else { return nil }
        self.scheduledWake = wake
        return wake
    }

    /// The callback one effect calls, taken out of the tables when it is the last it will hear.
    mutating func delivery(for effect: SyncEffect) -> (@Sendable () -> Void)? {
        switch effect {
        case .event(let id, let event):
            guard let listener = self.listeners[id] else { return nil }
            return { listener.deliver(event) }
        case .cancelled(let id, let error):
            guard let listener = self.listeners.removeValue(forKey: id) else { return nil }
            return { listener.cancel(error) }
        case .writeCompleted(let id, let error):
            guard let completion = self.writes.removeValue(forKey: id) else { return nil }
            return { completion(error) }
        case .transactionCompleted(let id, let outcome):
            guard let completion = self.transactions.removeValue(forKey: id) else { return nil }
            return { completion(outcome) }
        case .getCompleted(let token, let result):
            guard let completion = self.gets.removeValue(forKey: token) else { return nil }
            return { completion(result) }
        case .requestCompleted(let token, let response):
            guard let completion = self.requests.removeValue(forKey: token) else { return nil }
            return { completion(response) }
        }
    }
}
