import HearthNode
import HearthServer
import HearthStorage
import HearthSystem
import HearthTestKit
import Testing

/// The figures the alert rules compare against (cluster-config/monitoring/hearth.rules.yml): the client memory
/// budget next to the memory charged to it, and the time the write-ahead log spends in fsync next to its fsyncs.
@Suite struct MonitoringFiguresTests {
    /// The value of the unlabelled sample `name` in a Prometheus exposition.
    private static func sample(_ name: String, in exposition: String) -> Double? {
        exposition.split(separator: "\n").lazy.compactMap { line -> Double? in
            let fields = line.split(separator: " ")
            guard fields.count == 2, fields[0] == name else { return nil }
            return Double(fields[1])
        }.first
    }

    /// `/.metrics` shows the budget `--max-client-memory` set, and a durable write's fsyncs took measurable time.
    @Test func theClientMemoryBudgetAndTheFsyncTimeAreExported() async throws {
        let budget = 96 * 1024 * 1024
        try await TestNode.with(configure: {
            $0.maximumClientMemory = budget
            $0.fsync = .always
        }) { node in
            #expect(try await node.request("PUT", "/a.json", body: "1").status == 200)
            let metrics = try await node.request("GET", "/.metrics").text
            #expect(Self.sample("hearth_client_memory_budget_bytes", in: metrics) == Double(budget))
            #expect((Self.sample("hearth_wal_fsyncs_total", in: metrics) ?? 0) >= 1)
            #expect((Self.sample("hearth_wal_fsync_seconds_total", in: metrics) ?? 0) > 0)
        }
    }

    /// `/.metrics` names the node's release, as `hearth --version` prints it, for dashboards and the bench's report.
    @Test func theReleaseIsExported() async throws {
        try await TestNode.with { node in
            let metrics = try await node.request("GET", "/.metrics").text
            #expect(metrics.contains("hearth_build_info{version=\"\(HearthVersion.release)\"} 1\n"), "\(metrics)")
        }
    }
}
