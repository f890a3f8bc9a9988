import Foundation
import HearthNode
import HearthServer
import HearthSystem
import HearthTestKit

/// An in-process node on a free loopback port with a temporary data directory, stopped when the test ends (and the
/// directory removed then, when the node made it).
struct TestNode {
    let port: Int
    let dataDirectory: String

    /// Runs `body` against a fresh node, then shuts the node down gracefully. Without a `dataDirectory`, the node
    /// gets a temporary one, removed once it has stopped.
    static func with<T>(
        dataDirectory: String? = nil,
        configure: (inout NodeConfiguration) -> Void = { _ in },
        _ body: (TestNode) async throws -> T
    ) async throws -> T {
        guard let dataDirectory else {
            return try await TemporaryDirectory.with { directory in
                try await Self.with(dataDirectory: directory.path, configure: configure, body)
            }
        }
        var configuration = NodeConfiguration()
        configuration.port = 0
        configuration.dataDirectory = dataDirectory
        configuration.logLevel = .warning
        configure(&configuration)
        let runtime = NodeRuntime(configuration: configuration, log: Log(level: .warning))
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let task = Task {
            try await runtime.run { port in continuation.yield(port) }
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            task.cancel()
            try await task.value
            throw TestClientError(description: "node did not start")
        }
        let node = TestNode(port: port, dataDirectory: configuration.dataDirectory)
        do {
            let result = try await body(node)
            task.cancel()
            try await task.value
            return result
        } catch {
            task.cancel()
            try? await task.value
            throw error
        }
    }

    func client() throws -> HTTPTestClient { try HTTPTestClient(port: self.port) }

    /// One request on a new connection, run off the cooperative pool (the client blocks).
    func request(_ method: String, _ target: String, body: String? = nil, headers: [(String, String)] = [])
        async throws -> HTTPTestClient.Response
    {
        try await HTTPTestClient.request(port: self.port, method, target, body: body, headers: headers)
    }
}
