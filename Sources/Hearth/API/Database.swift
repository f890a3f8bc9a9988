public import Dispatch
import Foundation
import HearthCore
import Synchronization

/// The entry point, as in FirebaseDatabase: one instance per database URL, which hands out references and owns the
/// connection, the cache and the write queue behind them.
///
/// ```swift
/// let database = Database.database(url: "http://127.0.0.1:9000?ns=demo")
/// database.callbackQueue = DispatchQueue(label: "app.database")   // main by default
/// let ref = database.reference(withPath: "users/ada")
/// ```
///
/// Settings (`useEmulator`, `callbackQueue`) are read when the first reference is made, which also connects.
public final class Database: Sendable {
    private struct Settings {
        var location: DatabaseLocation
        var callbackQueue = DispatchQueue.main
        var repo: Repo?
    }

    private static let instances = Mutex<[DatabaseLocation: Database]>([:])
    private let settings: Mutex<Settings>

    private init(location: DatabaseLocation) {
        self.settings = Mutex(Settings(location: location))
    }

    /// The database at `HEARTH_DATABASE_URL`, or a node on this machine (`http://127.0.0.1:9000`, `hearth serve`'s
    /// default) when it is not set.
    public static func database() -> Database {
        Self.database(url: ProcessInfo.processInfo.environment["HEARTH_DATABASE_URL"] ?? "http://127.0.0.1:9000")
    }

    /// The database at `url`: the same URL gives the same instance. `?ns=name` picks the database on a node, as
    /// with Firebase's emulator. An invalid URL stops the app with a message saying what to write, as
    /// FirebaseDatabase's exception does.
    public static func database(url: String) -> Database {
        Self.database(urls: [url])
    }

    /// The database served by a cluster's nodes: the client connects to the first it reaches and fails over to the
    /// others in turn.
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

    /// Connects to `host:port` instead of the URL's host, as for Firebase's emulator; only before the first
    /// reference is made.
    public func useEmulator(withHost host: String, port: Int) {
        self.settings.withLock { settings in
            precondition(
                settings.repo == nil,
                "(useEmulator) Cannot connect to the emulator after the database has been used; call it first.")
            settings.location.endpoints = [RealtimeEndpoint(host: host, port: port)]
        }
    }

    /// A reference to the database's root.
    public func reference() -> DatabaseReference {
        DatabaseReference(database: self, path: .root)
    }

    /// A reference to `path` (`"users/ada"`); an invalid path stops the app with Firebase's message.
    public func reference(withPath path: String) -> DatabaseReference {
        self.reference().child(path)
    }

    /// A reference to the location `url` names, which must be in this database.
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
    public static func sdkVersion() -> String { "0.1.0" }

    var location: DatabaseLocation { self.settings.withLock { $0.location } }

    /// The running client, made (and connected) on first use.
    var repo: Repo {
        self.settings.withLock { settings in
            if let repo = settings.repo { return repo }
            let queue = settings.callbackQueue
            let configuration = ConnectionMachine.Configuration(
                endpoints: settings.location.endpoints, namespace: settings.location.namespace)
            let repo = Repo(configuration: configuration) { [weak self] in self?.callbackQueue ?? queue }
            settings.repo = repo
            return repo
        }
    }
}
