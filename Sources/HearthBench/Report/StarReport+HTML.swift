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
            series: [.init(name: "ms", color: "#7a4fd0", values: percentiles.map(\.1))], isBars: true,
            isLogarithmic: true, printsValues: true)
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
            <html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>hearth bench stars \(HTMLText.escape(self.run))</title>
            <style>body{font-family:sans-serif;margin:1em auto;padding:0 1em;max-width:64em}\
            pre{background:#f4f4f4;padding:1em;white-space:pre-wrap;overflow-wrap:anywhere}\
            .facts{display:flex;flex-wrap:wrap;gap:.2em 1.5em;padding:0;list-style:none}.facts b{font-weight:600}\
            svg.chart{width:100%;max-width:960px;height:auto;display:block;margin:1em 0}\
            .ok{color:#2a9d55}.bad{color:#d94a2a}</style></head><body>
            <h1>hearth bench stars</h1>
            \(self.contextHTML)
            <pre>\(HTMLText.escape(self.text))</pre>
            \(charts.joined(separator: "\n"))
            <h2>Checks</h2>
            \(checks)
            </body></html>
            """
    }

    /// The run's when, where and with what, and every option it used, as lists that wrap on a narrow page.
    var contextHTML: String {
        func item(_ name: String, _ value: String) -> String {
            "<li><b>\(HTMLText.escape(name))</b> \(HTMLText.escape(value))</li>"
        }
        var facts = [item("run", self.run)]
        if let context = self.context {
            facts +=
                [
                    item("started (UTC)", context.startedUTC), item("host", context.host),
                    item("hearth-bench", context.benchVersion),
                ] + context.nodeVersions.map { item("hearth", $0) }
        }
        let options: [String] = self.options.summary.map { item($0.name, $0.value) }
        return
            "<ul class=\"facts\">\(facts.joined())</ul>\n<h2>Options</h2>\n<ul class=\"facts\">\(options.joined())</ul>"
    }
}
