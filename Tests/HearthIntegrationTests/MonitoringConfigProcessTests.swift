import Foundation
import HearthTestKit
import Testing

/// The alert rules, the Grafana dashboard and the scrape config under `cluster-config/monitoring/`, held to what a
/// running cluster member exports: every `hearth_*` metric they name is a family in its `/.metrics`, so a renamed
/// or removed figure fails here rather than leaving an alert that can never fire or a panel that stays empty.
@Suite(.serialized) struct MonitoringConfigProcessTests {
    /// `cluster-config/monitoring/` of the repository this test was built from.
    private static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("cluster-config/monitoring")

    /// The text of the file `name` in `cluster-config/monitoring/`.
    private static func file(_ name: String) throws -> String {
        try String(contentsOf: Self.directory.appendingPathComponent(name), encoding: .utf8)
    }

    /// Every `hearth_…` metric name in `text`: `hearth_` where no identifier character precedes it, then the
    /// lowercase letters, digits and underscores that follow.
    static func metricNames(in text: String) -> Set<String> {
        let bytes = Array(text.utf8)
        let prefix = Array("hearth_".utf8)
        func isNameByte(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
        }
        func isIdentifierByte(_ byte: UInt8) -> Bool {
            isNameByte(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
        }
        var names: Set<String> = []
        var index = 0
        while index + prefix.count <= bytes.count {
            guard index == 0 || !isIdentifierByte(bytes[index - 1]),
                bytes[index..<index + prefix.count].elementsEqual(prefix)
            else {
                index += 1
                continue
            }
            var end = index + prefix.count
            while end < bytes.count, isNameByte(bytes[end]) { end += 1 }
            names.insert(String(decoding: bytes[index..<end], as: UTF8.self))
            index = end
        }
        return names
    }

    /// The families an exposition declares (its `# TYPE name type` lines), by name, with their types. Every family
    /// is declared even before it has a sample.
    static func families(in exposition: String) -> [String: String] {
        var families: [String: String] = [:]
        for line in exposition.split(separator: "\n") where line.hasPrefix("# TYPE ") {
            let fields = line.split(separator: " ")
            if fields.count == 4 { families[String(fields[2])] = String(fields[3]) }
        }
        return families
    }

    /// The family a name in a query reads, if the node exports it: the name itself, or for a histogram's
    /// `_bucket`, `_sum` and `_count` series the histogram.
    static func family(of name: String, in families: [String: String]) -> String? {
        if families[name] != nil { return name }
        for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) {
            let base = String(name.dropLast(suffix.count))
            if families[base] == "histogram" { return base }
        }
        return nil
    }

    /// Every query (`expr`) anywhere in a Grafana dashboard document.
    static func queries(in document: Any) -> [String] {
        if let object = document as? [String: Any] {
            let own = (object["expr"] as? String).map { [$0] } ?? []
            return own + object.values.flatMap { Self.queries(in: $0) }
        }
        if let array = document as? [Any] { return array.flatMap { Self.queries(in: $0) } }
        return []
    }

    /// A histogram's series map to the histogram; a name the exposition lacks maps to nothing.
    @Test func histogramSeriesMapToTheirFamily() {
        let families = Self.families(
            in: "# HELP a_seconds x\n# TYPE a_seconds histogram\n# TYPE b_total counter\nb_total 1\n")
        #expect(families == ["a_seconds": "histogram", "b_total": "counter"])
        #expect(Self.family(of: "a_seconds_bucket", in: families) == "a_seconds")
        #expect(Self.family(of: "a_seconds_count", in: families) == "a_seconds")
        #expect(Self.family(of: "b_total", in: families) == "b_total")
        #expect(Self.family(of: "b_total_count", in: families) == nil)
        #expect(
            Self.metricNames(in: #"rate(hearth_a_total{x="hearth_b"}[5m]) HearthAlert myhearth_c"#)
                == ["hearth_a_total", "hearth_b"])
    }

    /// Every alert says how long it must hold, how bad it is and what to do: a `for:`, a `severity` label of
    /// `critical` or `warning`, and a summary and a description.
    @Test func everyAlertHasADurationASeverityAndAdvice() throws {
        let rules = try Self.file("hearth.rules.yml")
        let alerts = rules.components(separatedBy: "- alert: ").dropFirst()
        #expect(alerts.count >= 10)
        for alert in alerts {
            let name = alert.prefix { $0 != "\n" }
            #expect(alert.contains("\n        expr: "), "\(name) has no expr")
            #expect(alert.contains("\n        for: "), "\(name) has no for:")
            #expect(
                alert.contains("severity: critical\n") || alert.contains("severity: warning\n"),
                "\(name) has no severity")
            #expect(alert.contains("\n          summary: "), "\(name) has no summary")
            #expect(alert.contains("\n          description: "), "\(name) has no description")
        }
        let scrape = try Self.file("prometheus.yml")
        #expect(scrape.contains("job_name: hearth\n    metrics_path: /.metrics\n"))
        #expect(scrape.contains("  - hearth.rules.yml\n"))
    }

    /// Every `hearth_*` metric the alert rules, their promtool tests and the dashboard name is a family a cluster
    /// member's `/.metrics` declares, and every dashboard query reads at least one of them.
    @Test(.timeLimit(.minutes(3))) func everyMetricTheRulesAndTheDashboardNameIsExported() async throws {
        let rules = try Self.file("hearth.rules.yml")
        let dashboard = try Self.file("hearth-dashboard.json")
        let document = try JSONSerialization.jsonObject(with: Data(dashboard.utf8))
        let queries = Self.queries(in: document)
        #expect(queries.count >= 20)

        let cluster = try await ProcessCluster(nodes: 3)
        defer { cluster.terminateAll() }
        #expect(
            await eventually(seconds: 60, every: 0.1) { await cluster.areReady() })
        let families = Self.families(in: try await cluster.request("n1", "GET", "/.metrics").text)
        #expect(families["hearth_raft_is_leader"] == "gauge")

        let ruleTests = try Self.file("hearth.rules.test.yml")
        for (file, text) in [
            ("hearth.rules.yml", rules), ("hearth.rules.test.yml", ruleTests), ("hearth-dashboard.json", dashboard),
        ] {
            let names = Self.metricNames(in: text)
            #expect(!names.isEmpty, "\(file) names no metric")
            for name in names.sorted() {
                #expect(Self.family(of: name, in: families) != nil, "\(file) names \(name), which /.metrics lacks")
            }
        }
        for query in queries {
            #expect(
                Self.metricNames(in: query).contains { Self.family(of: $0, in: families) != nil },
                "the dashboard query \(query) reads no metric the node exports")
        }
    }
}
