/// One named metric and all its labelled series, as `MetricsRegistry` keeps and renders it.
protocol MetricFamily: Sendable {
    var name: String { get }
    /// Appends the family's `# HELP`/`# TYPE` header and one line per sample.
    func render(into text: inout String)
}

/// What every family declares: a checked name, help text and label names, and how its sample lines are spelled.
struct MetricDescriptor: Sendable {
    let name: String
    let help: String
    let labelNames: [String]

    /// Traps on an invalid metric or label name: names are constants in code, so a bad one is a bug.
    init(name: String, help: String, labelNames: [String] = []) {
        PrometheusText.checkName(name)
        labelNames.forEach { PrometheusText.checkName($0, isLabel: true) }
        self.name = name
        self.help = help
        self.labelNames = labelNames
    }

    /// Traps unless `values` has one value per declared label: label values are passed positionally, so a
    /// mismatch is a bug at the call site.
    func check(_ values: [String]) {
        precondition(
            values.count == self.labelNames.count,
            "metric '\(self.name)' has labels \(self.labelNames) but was given \(values.count) value(s): \(values)"
        )
    }

    func header(type: String) -> String {
        PrometheusText.header(name: self.name, help: self.help, type: type)
    }

    /// One sample line: `name<suffix>{labels[,le="…"]} value`.
    func sample(_ values: [String], suffix: String = "", le: String? = nil, value: String) -> String {
        let labels = PrometheusText.labels(self.labelNames, values, extra: le.map { ("le", $0) })
        return "\(self.name)\(suffix)\(labels) \(value)\n"
    }

    /// Series in a stable order (by label values), so the exposition does not reshuffle between scrapes.
    static func ordered<Value>(_ series: [[String]: Value]) -> [(labels: [String], value: Value)] {
        series.map { (labels: $0.key, value: $0.value) }
            .sorted { $0.labels.lexicographicallyPrecedes($1.labels) }
    }
}
