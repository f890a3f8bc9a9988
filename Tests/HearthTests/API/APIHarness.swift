import Dispatch
import Foundation
import HearthCore
import HearthTestKit
import Synchronization

@testable import Hearth

/// A `hearth serve` process and clients of it made with the public API, each with its own connection and a
/// private callback queue.
final class APIHarness {
    let server: ServerProcess
    private let clients = Mutex<[Database]>([])

    init() async throws {
        self.server = try await ServerProcess()
    }

    var url: String { "http://127.0.0.1:\(self.server.port)?ns=api" }

    /// A new client: its own connection, cache and write queue, kept in `persistenceDirectory` when given.
    /// - Parameter port: connect there instead of the server's port (a proxy in front of it).
    func client(port: Int? = nil, persistenceDirectory: String? = nil) throws -> Database {
        let url = port.map { "http://127.0.0.1:\($0)?ns=api" } ?? self.url
        let database = try Database.unshared(url: url)
        database.callbackQueue = DispatchQueue(label: "test.callbacks")
        if let persistenceDirectory {
            database.isPersistenceEnabled = true
            database.persistenceDirectory = persistenceDirectory
        }
        self.clients.withLock { $0.append(database) }
        return database
    }

    /// Closes the clients, stops the server and waits for it to exit.
    func stop() async {
        for client in self.clients.withLock({ $0 }) { client.close() }
        await self.server.stop()
    }

    /// Closes the clients and signals the server without waiting: for a `defer` at a test's end.
    func terminate() {
        for client in self.clients.withLock({ $0 }) { client.close() }
        self.server.terminate()
    }
}

/// What callbacks received, in order, for assertions from the test's task.
final class Received<Element: Sendable>: Sendable {
    private let elements = Mutex<[Element]>([])

    var all: [Element] { self.elements.withLock { $0 } }

    var last: Element? { self.all.last }

    func append(_ element: Element) { self.elements.withLock { $0.append(element) } }
}

/// Sendable carrier for a snapshot's value (an `Any?`), read as JSON text for comparisons.
struct SnapshotText: Sendable, Equatable, CustomStringConvertible {
    let key: String?
    let json: String
    let previous: String?

    init(_ snapshot: DataSnapshot, previous: String? = nil) {
        self.key = snapshot.key
        self.json = snapshot.node.isEmpty ? "null" : String(decoding: snapshot.node.jsonBytes(), as: UTF8.self)
        self.previous = previous
    }

    var description: String { "\(self.key ?? "/")=\(self.json) after \(self.previous ?? "-")" }
}
