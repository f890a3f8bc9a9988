import Dispatch
import Foundation
import HearthCore
import HearthSystem
import HearthWire
import Synchronization

/// One database's running client: the thin shell around the `SyncEngine` value and the `PersistentConnection`
/// (Firebase's `Repo`).
///
/// Every engine call runs on the repo's serial queue, so the engine sees the app's calls and the server's events
/// in one order; transaction update blocks run there too, as FirebaseDatabase runs them off the main queue. What a
/// call produces goes out in order: commands to the connection, then the app's callbacks (events, completions) as
/// one block on the database's callback queue, so callbacks keep the engine's order.
final class Repo: Sendable {
    private let queue = DispatchQueue(label: "hearth.repo")
    private let state = Lock(RepoState())
    private let connection: PersistentConnection
    private let callbackQueue: @Sendable () -> DispatchQueue
    private let numbers = Atomic<Int64>(1)
    private let pushIDs = Lock(PushIDGenerator())
    /// With persistence: the files, and how large the cache may grow.
    let persistence: RepoPersistence?
    /// Set by `close()`: nothing more is saved.
    private let isClosed = Atomic<Bool>(false)

    /// Connects at once, as FirebaseDatabase does when the first reference is made; with persistence, first loads
    /// the saved cache and makes the saved writes again.
    init(
        configuration: ConnectionMachine.Configuration,
        persistence: RepoPersistence? = nil,
        callbackQueue: @escaping @Sendable () -> DispatchQueue
    ) {
        let relay = ServerEventRelay()
        self.connection = PersistentConnection(
            configuration: configuration,
            log: { DatabaseLog.write("connection: \($0)") },
            onEvent: { relay.deliver($0) }
        )
        self.callbackQueue = callbackQueue
        self.persistence = persistence
        relay.connect { [weak self] event in
            self?.run { state in state.engine.handle(event, now: Repo.now()) }
        }
        if let persistence {
            self.run { state in persistence.restore(into: &state) }
        }
        self.connection.goOnline()
    }

    deinit {
        self.connection.close()
    }

    /// A number unique in this repo, for listener handles, transactions and requests.
    func makeNumber() -> Int64 {
        self.numbers.wrappingAdd(1, ordering: .relaxed).oldValue
    }

    /// A push id for `childByAutoId()`.
    func makePushID() -> String {
        var random = SystemRandomNumberGenerator()
        return self.pushIDs.withLock { $0.next(now: Repo.now(), using: &random) }
    }

    /// The local clock in milliseconds since the Unix epoch, for server-value estimates and push ids.
    static func now() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded())
    }

    /// Closes the connection for good, saving the cache first when persistence is on.
    func close() {
        guard !self.isClosed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        if let persistence = self.persistence {
            self.queue.sync { self.state.withLock { persistence.saveCache(from: &$0) } }
        }
        self.connection.close()
    }

    /// Saves the cache a while after it changed, once for a burst of changes.
    private func scheduleCacheSave() {
        self.queue.asyncAfter(deadline: .now() + RepoPersistence.saveDelay) { [weak self] in
            guard let self, let persistence = self.persistence, !self.isClosed.load(ordering: .acquiring) else {
                return
            }
            self.state.withLock { persistence.saveCache(from: &$0) }
        }
    }

    func goOnline() { self.connection.goOnline() }

    func goOffline() { self.connection.goOffline() }

    /// Runs one engine call on the repo's queue, then carries out what it produced.
    func run(_ body: @escaping @Sendable (inout RepoState) -> SyncOutput) {
        self.queue.async {
            let (commands, deliveries, wake, saveCache) = self.state.withLock { state in
                let output = body(&state)
                let saveCache = self.persistence?.record(output, in: &state) ?? false
                let deliveries = output.effects.compactMap { state.delivery(for: $0) }
                return (output.commands, deliveries, state.scheduleWake(), saveCache)
            }
            if saveCache { self.scheduleCacheSave() }
            for command in commands { self.connection.send(command) }
            if let wake { self.wake(at: wake) }
            guard !deliveries.isEmpty else { return }
            self.callbackQueue().async {
                for delivery in deliveries { delivery() }
            }
        }
    }

    /// Ticks the engine at `wake` (local milliseconds), when a transaction's back-off ends.
    private func wake(at wake: Int64) {
        let delay = max(0, wake - Repo.now())
        self.queue.asyncAfter(deadline: .now() + .milliseconds(Int(delay))) { [weak self] in
            self?.run { state in
                state.scheduledWake = nil
                return state.engine.tick(now: Repo.now())
            }
        }
    }

    /// Runs `body` on the callback queue, after every callback already queued there: for failures found before the
    /// engine is asked (an invalid value), which FirebaseDatabase would raise as an exception.
    func deliver(_ body: @escaping @Sendable () -> Void) {
        self.queue.async { self.callbackQueue().async(execute: body) }
    }

    /// Adds a listener to the table at once, from the caller's thread.
    func register(_ registration: ListenerRegistration) {
        self.state.withLock { $0.listeners[registration.id] = registration }
    }

    /// Takes the listeners `matching` selects out of the table at once and silences them.
    func unregister(_ matching: (ListenerRegistration) -> Bool) -> [ListenerID] {
        let removed = self.state.withLock { state in
            let found = state.listeners.values.filter(matching)
            for registration in found { state.listeners[registration.id] = nil }
            return found
        }
        for registration in removed { registration.deactivate() }
        return removed.map(\.id)
    }
}

/// Hands the connection's events to the repo once the repo exists (the connection is made first).
private final class ServerEventRelay: Sendable {
    /// In a struct: a closure kept as a lock's state directly gains a thunk on every read (`LockedClosure`).
    private let target = Lock<LockedClosure<@Sendable (ServerEvent) -> Void>?>(nil)

    func connect(_ target: @escaping @Sendable (ServerEvent) -> Void) {
        self.target.withLock { $0 = LockedClosure(target) }
    }

    func deliver(_ event: ServerEvent) {
        self.target.withLock { $0 }?.call(event)
    }
}
