import HearthCluster
import HearthCore
import HearthDatabase
import HearthFrontEnds
import HearthNet
public import HearthNode
import HearthReplication
import HearthStorage
public import HearthSystem

/// A running Hearth node: the database (a single node's, or a cluster member's), its HTTP front end and its
/// background services in one task group.
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

    /// Says how many clients the node can hold, and warns when the descriptor limit keeps that low.
    private func logConnectionLimit(_ connections: Int) {
        let limit = DescriptorLimit.current()
        if limit.soft < DescriptorLimit.comfortable {
            self.log.warning(
                "http.descriptors_low",
                [
                    "descriptors": "\(limit.soft)", "connections": "\(connections)",
                    "action": "raise the limit (ulimit -n, or LimitNOFILE= in a systemd unit)",
                ])
        } else {
            self.log.info("http.connection_limit", ["descriptors": "\(limit.soft)", "connections": "\(connections)"])
        }
    }

    /// Runs the node until cancelled. `onListening` receives the bound port once the node accepts requests.
    public func run(onListening: @Sendable (Int) -> Void = { _ in }) async throws {
        if !LargeAllocations.returnToTheSystemWhenFreed() {
            self.log.warning(
                "memory.mmap_threshold_refused",
                ["action": "none needed; memory of big requests may stay with the process after they finish"])
        }
        let backend = try await self.openBackend()
        let metrics = Metrics()
        let access = AccessControl(
            database: backend, authenticator: self.configuration.authenticator,
            defaultRules: self.configuration.defaultRules,
            conditionalWrites: backend.sharedConditionalWriteTurns ?? ConditionalWriteGate(), log: self.log)
        let wire = WireSessions(
            database: backend, configuration: self.configuration, access: access, log: self.log, metrics: metrics)
        let handler = RESTHandler(
            database: backend, configuration: self.configuration, access: access, metrics: metrics,
            log: self.log, wire: wire, cluster: backend as? any ClusterOperations
        )
        var http = HTTPServerConfiguration()
        http.host = self.configuration.host
        http.port = self.configuration.port
        http.headerTimeoutSeconds = self.configuration.headerTimeoutSeconds
        http.outboundBufferLimit = self.configuration.outboundBufferLimit
        http.outputSoftLimitBytes = self.configuration.outputSoftLimitBytes
        http.outputSoftLimitSeconds = self.configuration.outputSoftLimitSeconds
        http.maximumClientMemory = self.configuration.effectiveMaximumClientMemory
        http.onEviction = { [log = self.log] address, reason, held in
            let why = reason == .clientMemoryBudget ? "client_memory_budget" : "output_soft_limit"
            log.warning("http.client_evicted", ["client": address, "reason": why, "held_bytes": "\(held)"])
        }
        http.maximumConnections = self.configuration.maximumConnections ?? DescriptorLimit.current().connections
        http.sendHelpers = self.configuration.sendHelpers ?? HTTPServerConfiguration.defaultSendHelpers
        http.minimumDataRate.bytesPerSecond = self.configuration.minimumBodyBytesPerSecond
        http.bodyDeadlineSeconds = self.configuration.bodyDeadlineSeconds
        self.logConnectionLimit(http.maximumConnections)
        self.logOwnerCredential()
        let budget = self.configuration.effectiveMaximumClientMemory
        if budget < self.configuration.maximumImportBytes {
            self.log.warning(
                "http.client_memory_below_import",
                [
                    "budget_bytes": "\(budget)", "import_bytes": "\(self.configuration.maximumImportBytes)",
                    "hint":
                        "an import this large would be cut off; raise --max-client-memory or lower --max-import-bytes",
                ])
        } else {
            self.log.info("http.client_memory", ["budget_bytes": "\(budget)"])
        }
        let server = HTTPServer(configuration: http, handler: handler)
        metrics.registerNodeFigures(backend: backend, access: access, wire: wire, server: server)
        let port: Int
        do {
            port = try server.bind()
        } catch {
            await backend.close(log: self.log)
            throw error
        }
        self.log.info("http.listening", ["host": self.configuration.host, "port": "\(port)"])
        onListening(port)

        let keepAlive = self.configuration.keepAliveSeconds
        // The backend's own work (replication, snapshots) outlives the front end: requests in flight at shutdown
        // still need their writes committed. It is stopped once the front end has drained.
        let (servicesEnded, servicesEnd) = AsyncStream.makeStream(of: Bool.self)
        let services = Task {
            await backend.runServices(log: self.log)
            servicesEnd.yield(!Task.isCancelled)
            servicesEnd.finish()
        }
        let rulesInstall = Task { await self.installRules(access) }
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
                // True when the services ended by themselves (the log failed): the node must stop.
                for await mustStop in servicesEnded { return mustStop }
                return false
            }
            group.addTask {
                await wire.run()
                return false
            }
            group.addTask {
                while (try? await Task.sleep(for: .seconds(keepAlive))) != nil {
                    backend.view.forEachListener { ($0 as? SSEStream)?.sendKeepAlive() }
                }
                return false
            }
            if let path = self.configuration.authKeysFile {
                group.addTask {
                    await self.watchAuthKeys(path, access: access)
                    return false
                }
            }
            while let mustStop = await group.next() {
                if mustStop { group.cancelAll() }
            }
        }
        rulesInstall.cancel()
        services.cancel()
        await services.value
        await backend.close(log: self.log)
    }

    /// A single node's database, or this member's part of the cluster the configuration names.
    private func openBackend() async throws -> any NodeBackend {
        let configuration = self.configuration
        let disk = PosixFileSystem()
        guard configuration.isClusterMember else {
            return try await Database.open(configuration: self.configuration, fileSystem: disk, log: self.log)
        }
        guard let secret = configuration.clusterSecret else {
            throw ClusterNodeError(
                "A cluster member needs the cluster secret its peers prove: name the file with secretFile in the "
                    + "cluster configuration or --cluster-secret-file (\(ClusterConfiguration.secretAdvice)).")
        }
        if let seed = configuration.joinThrough {
            guard let node = configuration.node, let peerPort = configuration.peerPort else {
                throw ClusterNodeError("A node joining a cluster needs --node and --peer-port.")
            }
            return try await ClusterNode.join(
                seed: try Self.socketAddress(seed),
                member: ClusterConfiguration.Node(
                    id: node, host: configuration.host, httpPort: configuration.port, peerPort: peerPort),
                secret: secret, release: configuration.peerRelease, remembered: configuration.joinSecretFiles,
                directory: configuration.dataDirectory, fileSystem: disk, fsync: configuration.fsync,
                catchUpHold: .seconds(configuration.catchUpHoldSeconds), log: self.log)
        }
        if let joined = configuration.joined {
            return try await ClusterNode.open(
                joined: joined, secret: secret, release: configuration.peerRelease,
                directory: configuration.dataDirectory, fileSystem: disk, fsync: configuration.fsync,
                catchUpHold: .seconds(configuration.catchUpHoldSeconds), log: self.log)
        }
        guard let cluster = self.configuration.cluster else {
            return try await Database.open(configuration: self.configuration, fileSystem: disk, log: self.log)
        }
        guard let node = self.configuration.node else {
            throw ClusterNodeError("A cluster node needs --node: which of the configuration's nodes this one is.")
        }
        return try await ClusterNode.open(
            cluster: cluster, node: node, secret: secret, release: configuration.peerRelease,
            directory: configuration.dataDirectory, fileSystem: disk, fsync: configuration.fsync,
            catchUpHold: .seconds(configuration.catchUpHoldSeconds), log: self.log)
    }

    /// `HOST:PORT` (IPv6 as `[::1]:9101`) as a socket address.
    static func socketAddress(_ text: String) throws -> SocketAddress {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]) else {
            throw ClusterNodeError(
                "\(text) is not HOST:PORT; --join takes a member's peer address, like 127.0.0.1:9101.")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        do {
            return try SocketAddress(host: host, port: port)
        } catch {
            throw ClusterNodeError(
                "\(text) is not a numeric HOST:PORT (\(error.message)); --join takes a member's peer address.")
        }
    }
}
