import HearthCore
import HearthNet
import HearthStorage
public import HearthSystem

/// A running Hearth node: the database, its HTTP front end and its background services in one task group.
///
/// `run()` returns when its task is cancelled (the CLI cancels it on SIGTERM/SIGINT). Shutdown is graceful and
/// ordered: the HTTP server stops accepting and finishes in-flight requests (whose writes still reach the log),
/// background loops stop, then the log is flushed and closed, so every acknowledged write is on disk.
public final class NodeRuntime: Sendable {
    public let configuration: NodeConfiguration
    let log: Log

    public init(configuration: NodeConfiguration, log: Log) {
        self.configuration = configuration
        self.log = log
    }

    /// Runs the node until cancelled. `onListening` receives the bound port once the node accepts requests.
    public func run(onListening: @Sendable (Int) -> Void = { _ in }) async throws {
        let database = try await Database.open(configuration: self.configuration, log: self.log)
        let metrics = Metrics()
        let wire = WireSessions(
            database: database, configuration: self.configuration, policy: OpenAccessPolicy(), log: self.log,
            metrics: metrics)
        let handler = RESTHandler(
            database: database, configuration: self.configuration, policy: OpenAccessPolicy(), metrics: metrics,
            log: self.log, wire: wire
        )
        var http = HTTPServerConfiguration()
        http.host = self.configuration.host
        http.port = self.configuration.port
        http.headerTimeoutSeconds = self.configuration.headerTimeoutSeconds
        http.outboundBufferLimit = self.configuration.outboundBufferLimit
        let server = HTTPServer(configuration: http, handler: handler)
        metrics.registerNodeFigures(database: database, wire: wire, server: server)
        let port: Int
        do {
            port = try server.bind()
        } catch {
            await database.close()
            throw error
        }
        self.log.info("http.listening", ["host": self.configuration.host, "port": "\(port)"])
        onListening(port)

        let keepAlive = self.configuration.keepAliveSeconds
        let snapshotInterval = self.configuration.snapshotIntervalSeconds
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                do {
                    try await server.run()
                } catch {
                    self.log.critical("http.failed", ["error": "\(error)"])
                }
                return false
            }
            group.addTask {
                await database.runSnapshots(log: self.log)
                return false
            }
            group.addTask {
                while (try? await Task.sleep(for: .seconds(snapshotInterval))) != nil {
                    database.snapshotIfChanged()
                }
                return false
            }
            group.addTask {
                await wire.run()
                return false
            }
            group.addTask {
                while (try? await Task.sleep(for: .seconds(keepAlive))) != nil {
                    database.view.forEachListener { ($0 as? SSEStream)?.sendKeepAlive() }
                }
                return false
            }
            group.addTask {
                guard let error = await database.waitForStorageFailure() else { return false }
                self.log.critical(
                    "wal.failed",
                    ["error": "\(error)", "action": "stopping the node; nothing further can be made durable"])
                return true
            }
            while let mustStop = await group.next() {
                if mustStop { group.cancelAll() }
            }
        }
        await database.close()
        self.log.info("node.stopped", ["wal_fsyncs": "\(database.walStatistics.fsyncs)"])
    }
}
