public import Dispatch
public import Foundation
import HearthCore
import HearthSystem

/// The entry point, as in FirebaseDatabase: one instance per database URL, which hands out references and owns the
/// connection, the cache and the write queue behind them.
///
/// ```swift
/// let database = Database.database(url: "http://127.0.0.1:9000?ns=demo")
/// database.callbackQueue = DispatchQueue(label: "app.database")   // main by default
/// let ref = database.reference(withPath: "users/ada")
/// ```
///
/// Settings (`useEmulator`, persistence) must be made before the database is first used (the first reference, or
/// `goOnline`/`goOffline`), which also connects; `callbackQueue` may change at any time. An `NSObject`, as
/// FirebaseDatabase's is; there is no public `init()` (FirebaseDatabase marks it unavailable).
public final class Database: NSObject, Sendable {
    private struct Settings {
        var location: DatabaseLocation
        var callbackQueue = DispatchQueue.main
        var isPersistenceEnabled = false
        var persistenceCacheSizeBytes: UInt = 10 * 1024 * 1024
        var persistenceDirectory: String?
        var repo: Repo?
    }

    private static let instances = Lock<[DatabaseLocation: Database]>([:])
    private let settings: Lock<Settings>

    private init(location: DatabaseLocation) {
        self.settings = Lock(Settings(location: location))
        super.init()
    }

    /// The database at `HEARTH_DATABASE_URL`, or a node on this machine (`http://127.0.0.1:9000`, `hearth serve`'s
    /// default) when it is not set.
    @discardableResult
    public static func database() -> Database {
        Self.database(url: ProcessInfo.processInfo.environment["HEARTH_DATABASE_URL"] ?? "http://127.0.0.1:9000")
    }

    /// The database at `url`: the same URL gives the same instance. `?ns=name` picks the database on a node, as
    /// with Firebase's emulator. An invalid URL stops the app with a message saying what to write, as
    /// FirebaseDatabase's exception does.
    @discardableResult
    public static func database(url: String) -> Database {
        Self.database(urls: [url])
    }

    /// The database served by a cluster's nodes: the client connects to the first it reaches and fails over to the
    /// others in turn.
    @discardableResult
    public static func database(urls: [String]) -> Database {
        let location: DatabaseLocation
        do {
            location = try DatabaseLocation(urls: urls)
        } catch {
            preconditionFailure("(Database.database(url:)) \(error.message)")
        }
        return Self.instances.withLock { instances in
            if let existing = instances[location] { return existing }
            let database = Database(location: location)
            instances[location] = database
            return database
        }
    }

    /// Every database made so far.
    static var all: [Database] { Self.instances.withLock { Array($0.values) } }

    /// A database not shared with `database(url:)`: another client of the same database in this process, as
    /// tests of several devices need. `close()` it when done.
    package static func unshared(url: String) throws(DatabaseValueError) -> Database {
        Database(location: try DatabaseLocation(parsing: url))
    }

    /// Goes offline for good: the connection closes and nothing more comes from the server.
    package func close() {
        self.settings.withLock { $0.repo }?.close()
    }

    /// The queue every callback runs on, one at a time (main by default). Set it before the first reference.
    public var callbackQueue: DispatchQueue {
        get { self.settings.withLock { $0.callbackQueue } }
        set { self.settings.withLock { $0.callbackQueue = newValue } }
    }

    /// Keeps the cache and the unconfirmed writes on disk, so that they survive a restart of the app (off by
    /// default, as in Firebase). Set it before the first reference.
    public var isPersistenceEnabled: Bool {
        get { self.settings.withLock { $0.isPersistenceEnabled } }
        set { self.changeBeforeUse("isPersistenceEnabled") { $0.isPersistenceEnabled = newValue } }
    }

    /// How large the cache on disk may grow, between 1 MB and 100 MB (10 MB by default); past it the data used
    /// least recently is dropped first, never data being listened to or kept synced. Set it before the first
    /// reference.
    public var persistenceCacheSizeBytes: UInt {
        get { self.settings.withLock { $0.persistenceCacheSizeBytes } }
        set {
            precondition(
                (1024 * 1024...100 * 1024 * 1024).contains(newValue),
                "Firebase Database currently only supports cache sizes between 1MB and 100MB.")
            self.changeBeforeUse("persistenceCacheSizeBytes") { $0.persistenceCacheSizeBytes = newValue }
        }
    }

    /// The folder persistence keeps its files in; each database has its own folder inside. By default
    /// `HEARTH_PERSISTENCE_DIRECTORY`, else `$XDG_DATA_HOME/hearth`, else `~/.local/share/hearth`.
    public var persistenceDirectory: String {
        get { self.settings.withLock { $0.persistenceDirectory ?? Self.defaultPersistenceDirectory } }
        set { self.changeBeforeUse("persistenceDirectory") { $0.persistenceDirectory = newValue } }
    }

    private static var defaultPersistenceDirectory: String {
        let environment = ProcessInfo.processInfo.environment
        if let directory = environment["HEARTH_PERSISTENCE_DIRECTORY"] { return directory }
        if let data = environment["XDG_DATA_HOME"] { return data + "/hearth" }
        return (environment["HOME"] ?? NSTemporaryDirectory()) + "/.local/share/hearth"
    }

    private func changeBeforeUse(_ setting: String, _ change: (inout Settings) -> Void) {
        self.settings.withLock { settings in
            precondition(
                settings.repo == nil,
                "(\(setting)) Calls to \(setting) must be made before any other usage of the Database instance.")
            change(&settings)
        }
    }

    /// Connects to `host:port` instead of the URL's host, as for Firebase's emulator; only before the first
    /// reference is made.
    public func useEmulator(withHost host: String, port: Int) {
        self.changeBeforeUse("useEmulator") { $0.location.endpoints = [RealtimeEndpoint(host: host, port: port)] }
    }

    /// A reference to the database's root.
    @discardableResult
    public func reference() -> DatabaseReference {
        DatabaseReference(database: self, path: .root)
    }

    /// A reference to `path` (`"users/ada"`); an invalid path stops the app with Firebase's message.
    @discardableResult
    public func reference(withPath path: String) -> DatabaseReference {
        self.reference().child(path)
    }

    /// A reference to the location `url` names, which must be in this database.
    @discardableResult
    public func reference(fromURL url: String) -> DatabaseReference {
        let location: DatabaseLocation
        do {
            location = try DatabaseLocation(parsing: url)
        } catch {
            preconditionFailure("(reference(fromURL:)) \(error.message)")
        }
        let own = self.settings.withLock { $0.location }
        precondition(
            location.namespace == own.namespace && location.endpoints[0] == own.endpoints[0],
            "(reference(fromURL:)) \(url) is not in the database at \(own.url(of: .root))")
        return self.reference(withPath: DatabaseLocation.split(url).path.removingPercentEncoding ?? "")
    }

    /// Reconnects after `goOffline()`.
    public func goOnline() { self.repo.goOnline() }

    /// Disconnects: writes queue, listeners hear local changes only, `.info/connected` turns false.
    public func goOffline() { self.repo.goOffline() }

    /// Cancels every write and transaction the server has not confirmed: their completions get `write_canceled`
    /// (code 3) and their local events are reverted. Writes already sent may still be applied by the server.
    public func purgeOutstandingWrites() {
        self.repo.run { state in state.engine.purgeWrites() }
    }

    /// Turns the library's log (connections, protocol errors) on or off; it goes to standard error.
    public static func setLoggingEnabled(_ enabled: Bool) {
        DatabaseLog.setEnabled(enabled)
    }

    /// The library's version.
    @discardableResult
    public static func sdkVersion() -> String { "0.1.0" }

    var location: DatabaseLocation { self.settings.withLock { $0.location } }

    /// The running client, made (and connected) on first use.
    var repo: Repo {
        self.settings.withLock { settings in
            if let repo = settings.repo { return repo }
            let queue = settings.callbackQueue
            let configuration = ConnectionMachine.Configuration(
                endpoints: settings.location.endpoints, namespace: settings.location.namespace)
            var persistence: RepoPersistence?
            if settings.isPersistenceEnabled {
                let location = settings.location
                let name = "\(location.endpoints[0].host)_\(location.endpoints[0].port)_\(location.namespace)"
                    .map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" }
                let directory = (settings.persistenceDirectory ?? Self.defaultPersistenceDirectory) + "/" + String(name)
                let store = ClientStore(directory: directory) { DatabaseLog.always("persistence: \($0)") }
                persistence = RepoPersistence(store: store, cacheBytes: Int(settings.persistenceCacheSizeBytes))
            }
            let repo = Repo(configuration: configuration, persistence: persistence) { [weak self] in
                self?.callbackQueue ?? queue
            }
            settings.repo = repo
            return repo
        }
    }
}
