extension StarReport {
    /// The report as one self-contained HTML page: the figures, throughput and latency over the run, the latency
    /// percentiles and the transaction attempts as inline SVG charts, and the checks.
    public var html: String {
        let seconds = self.series.map { "\($0.second)s" }
        let throughput = SVGChart(
            title: "Operations per second", unit: "ops/s", labels: seconds,
            series: [.init(name: "ops/s", color: "#2a6fdb", values: self.series.map { Double($0.operations) })])
        let latency = SVGChart(
            title: "Latency over the run (ms)", unit: "ms", labels: seconds,
            series: [
                .init(name: "p50", color: "#2a9d55", values: self.series.map(\.p50Milliseconds)),
                .init(name: "p99", color: "#d94a2a", values: self.series.map(\.p99Milliseconds)),
            ])
        let percentiles =
            Self.percentiles.map { ($0.name, self.tally.latency.milliseconds(at: $0.fraction)) }
            + [("max", self.tally.latency.maximumMilliseconds)]
        let distribution = SVGChart(
            title: "Latency percentiles, whole run (ms)", unit: "ms", labels: percentiles.map(\.0),
            series: [.init(name: "ms", color: "#7a4fd0", values: percentiles.map(\.1))], isBars: true)
        var charts = [throughput.svg, latency.svg, distribution.svg]
        if self.options.mode != .increment, let most = self.tally.attempts.keys.max() {
            let attempts = SVGChart(
                title: "Committed transactions by attempts", unit: "transactions", labels: (1...most).map(String.init),
                series: [
                    .init(
                        name: "transactions", color: "#c98a1a",
                        values: (1...most).map { Double(self.tally.attempts[$0] ?? 0) })
                ], isBars: true)
            charts.append(attempts.svg)
        }
        let checks =
            self.invariantsOk
            ? "<p class=\"ok\">Every check passed.</p>"
            : "<p class=\"bad\">\(self.violations.count) violation(s):</p><ul>"
                + self.violations.map { "<li>\(HTMLText.escape($0))</li>" }.joined() + "</ul>"
        return """
            <!doctype html>
            <html><head><meta charset="utf-8"><title>hearth bench stars \(HTMLText.escape(self.run))</title>
            <style>body{font-family:sans-serif;margin:2em;max-width:680px}pre{background:#f4f4f4;padding:1em;\
            overflow-x:auto}.ok{color:#2a9d55}.bad{color:#d94a2a}</style></head><body>
            <h1>hearth bench stars</h1>
            <pre>\(HTMLText.escape(self.text))</pre>
            \(charts.joined(separator: "\n"))
            <h2>Checks</h2>
            \(checks)
            </body></html>
            """
    }
}
