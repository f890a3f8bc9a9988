import HearthNet
import HearthTestKit
import Synchronization
import Testing

/// A handler built from closures, for tests.
struct TestHandler: HTTPRequestHandler {
    var bodyLimit = 1 << 20
    var respond: @Sendable (HTTPRequest) async -> HTTPReply
    var closed: @Sendable (UInt64) -> Void = { _ in }

    func maximumBodyBytes(
        method: String,
        path: String,
        query: [(name: String, value: String)],
        headers: HTTPHeaders
    ) -> Int {
        self.bodyLimit
    }

    func handle(_ request: HTTPRequest) async -> HTTPReply {
        await self.respond(request)
    }

    func connectionClosed(_ connectionID: UInt64) {
        self.closed(connectionID)
    }
}

extension HTTPServerConfiguration {
    /// Port 0 on loopback, with the given timeouts.
    static func loopback(headerTimeout: Double = 5, idleTimeout: Double = 5) -> HTTPServerConfiguration {
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        configuration.headerTimeoutSeconds = headerTimeout
        configuration.idleTimeoutSeconds = idleTimeout
        return configuration
    }
}

/// Starts a server on port 0, runs `body` with its port, then cancels it and waits for a graceful shutdown.
func withServer(
    _ configuration: HTTPServerConfiguration = .loopback(),
    handler: some HTTPRequestHandler,
    _ body: @escaping @Sendable (HTTPServer, Int) async throws -> Void
) async throws {
    try await withServer(HTTPServer(configuration: configuration, handler: handler), body)
}

/// Runs `server` (not yet bound), runs `body` with its port, then cancels it and waits for a graceful shutdown.
func withServer(
    _ server: HTTPServer,
    _ body: @escaping @Sendable (HTTPServer, Int) async throws -> Void
) async throws {
    let port = try server.bind()
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await server.run() }
        do {
            try await body(server, port)
        } catch {
            group.cancelAll()
            try await group.waitForAll()
            throw error
        }
        group.cancelAll()
        try await group.waitForAll()
    }
}

/// A thread-safe log of what a stream session or upgrade handler saw.
typealias EventLog = Recorder<String>

/// A thread-safe, append-only list of what some callback saw (log lines, dialer events), for tests to poll.
final class Recorder<Entry: Sendable>: Sendable {
    private let entries = Mutex<[Entry]>([])

    func append(_ entry: Entry) {
        self.entries.withLock { $0.append(entry) }
    }

    var all: [Entry] { self.entries.withLock { $0 } }

    /// Polls until `predicate` holds or `seconds` pass. The bound only ends a test that would otherwise hang: a
    /// whole-suite run on two loaded cores took over 5 s to hand a server its first request.
    func wait(seconds: Double = 60, until predicate: ([Entry]) -> Bool) async -> Bool {
        await eventually(seconds: seconds) { predicate(self.all) }
    }
}

/// Carries a test client across the thread hop; it is only touched by one thread at a time.
final class UncheckedBox: @unchecked Sendable {
    let client: HTTPTestClient
    init(_ client: HTTPTestClient) { self.client = client }
}

/// Sends `request` to `server` from a dedicated thread, waits for `started` (the handler has the request), then
/// cancels the server — a graceful shutdown — and returns the response the client read meanwhile, if any.
func responseAcrossGracefulShutdown(
    _ server: HTTPServer, request: String, started: @escaping @Sendable () async -> Bool
) async throws -> HTTPTestClient.Response? {
    let port = try server.bind()
    return try await withThrowingTaskGroup(of: HTTPTestClient.Response?.self) { group in
        group.addTask {
            try await server.run()
            return nil
        }
        group.addTask {
            try await onDedicatedThread {
                let client = try HTTPTestClient(port: port)
                try client.send(request)
                return try client.readResponse()
            }
        }
        #expect(await started())
        group.cancelAll()
        var response: HTTPTestClient.Response?
        for try await result in group { response = response ?? result }
        return response
    }
}
