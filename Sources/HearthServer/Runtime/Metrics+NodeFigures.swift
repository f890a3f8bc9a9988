import HearthDatabase
import HearthFrontEnds
import HearthNet
import HearthNode
import HearthStorage
import HearthSystem
import Synchronization

extension Metrics {
    /// Exports the figures the node's subsystems keep themselves (WAL, listeners, sessions, sockets) as sampled
    /// metrics, read at every scrape.
    func registerNodeFigures(
        backend: any NodeBackend, access: AccessControl, wire: WireSessions, server: HTTPServer
    ) {
        let registry = self.registry
        backend.registerOwnFigures(in: self)
        registry.gauge(
            "hearth_build_info", help: "Always 1; its label names this node's release (hearth --version).",
            labels: ["version"]
        ).set(1, [HearthVersion.release])
        registry.sampledCounter(
            "hearth_rules_too_costly_total",
            help: "Requests refused because evaluating their security rules ran out of the per-request budget."
        ) { Double(access.tooCostlyRefusals.load(ordering: .relaxed)) }
        registry.sampledCounter("hearth_wal_fsyncs_total", help: "fsync calls made by the write-ahead log.") {
            Double(backend.walStatistics.fsyncs)
        }
        registry.sampledCounter(
            "hearth_wal_fsync_seconds_total", help: "Seconds the write-ahead log spent in fsync calls, summed."
        ) { Double(backend.walStatistics.fsyncNanoseconds) / 1e9 }
        registry.sampledCounter("hearth_wal_records_total", help: "Records appended to the write-ahead log.") {
            Double(backend.walStatistics.records)
        }
        registry.sampledCounter("hearth_wal_bytes_total", help: "Bytes appended to the write-ahead log.") {
            Double(backend.walStatistics.bytes)
        }
        registry.sampledGauge(
            "hearth_open_streams", help: "Active listeners (SSE streams and wire-protocol listens)."
        ) { Double(backend.view.listenerCount) }
        registry.sampledGauge(
            "hearth_query_indexes", help: "Locations whose children are kept in a declared index's order (.indexOn)."
        ) { Double(backend.view.indexes.count) }
        registry.sampledCounter(
            "hearth_query_index_builds_total",
            help: "Indexes built from scratch: a location's first indexed query, or one after its index was dropped."
        ) { Double(backend.view.indexes.builds) }
        registry.sampledGauge(
            "hearth_wire_sessions", help: "Open realtime-protocol sessions (WebSocket and long polling)."
        ) { Double(wire.openSessionCount) }
        registry.sampledGauge(
            "hearth_wire_long_poll_bytes",
            help: "Bytes long-polling sessions hold (segments being joined, answers waiting for a poll)."
        ) { Double(wire.longPollMemory.heldBytes) }
        registry.sampledCounter(
            "hearth_wire_long_poll_refused_total",
            help: "Long-polling sessions ended for a segment out of bounds or for holding more than the node allows."
        ) { Double(wire.longPollMemory.refusedSessions) }
        registry.sampledGauge("hearth_connections_open", help: "Open client connections.") {
            Double(server.statistics.openConnections)
        }
        registry.sampledCounter("hearth_connections_accepted_total", help: "Accepted client connections.") {
            Double(server.statistics.acceptedConnections)
        }
        registry.sampledCounter("hearth_network_received_bytes_total", help: "Bytes read from clients.") {
            Double(server.statistics.bytesRead)
        }
        registry.sampledCounter("hearth_network_sent_bytes_total", help: "Bytes written to clients.") {
            Double(server.statistics.bytesWritten)
        }
        registry.sampledCounter(
            "hearth_accept_failures_total",
            help: "accept() failures (e.g. out of file descriptors); the listener pauses instead of spinning."
        ) { Double(server.statistics.acceptFailures) }
        registry.sampledCounter(
            "hearth_connections_refused_total",
            help: "Clients answered 503 and closed: no room (connection limit or descriptors) and none idle."
        ) { Double(server.statistics.refusedConnections) }
        registry.sampledCounter(
            "hearth_connections_idle_closed_total",
            help: "Idle keep-alive connections closed to make room for a new client."
        ) { Double(server.statistics.idleClosedForRoom) }
        registry.sampledGauge(
            "hearth_client_memory_bytes",
            help: "Bytes held for clients (queued answers, requests being received), charged to --max-client-memory."
        ) { Double(server.statistics.clientMemoryBytes) }
        registry.sampledGauge(
            "hearth_client_memory_budget_bytes",
            help: "The client memory budget (--max-client-memory) hearth_client_memory_bytes is charged to; 0: none."
        ) { Double(server.clientMemoryLimit ?? 0) }
        registry.sampledCounters(
            "hearth_connections_evicted_total",
            help: "Connections closed to protect memory: over the client memory budget, or too long above the "
                + "per-connection soft limit.",
            labels: ["reason"]
        ) {
            let statistics = server.statistics
            return [
                (["client_memory_budget"], Double(statistics.evictedForMemoryBudget)),
                (["output_soft_limit"], Double(statistics.evictedForSoftLimit)),
            ]
        }
        registry.sampledCounter(
            "hearth_parallel_flushes_total",
            help: "Batches of events to many connections at once that the reactor and its send helpers sent together."
        ) { Double(server.statistics.parallelFlushes) }
    }
}
