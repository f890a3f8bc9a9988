/// What one node's `/.metrics` showed of a run: how much each counter rose while it ran, and each gauge at its end.
///
/// Series are named as the node writes them, labels included (`hearth_wire_requests_total{action="m",status="ok"}`);
/// histogram buckets are left out (their `_sum` and `_count` are kept as counters).
public struct ServerFigures: Sendable, Equatable {
    public var node: String
    /// Counters' increases over the run: series whose name ends in `_total`, `_sum` or `_count`.
    public var counters: [String: Double] = [:]
    /// Every other series, at the end of the run.
    public var gauges: [String: Double] = [:]
    /// Why the figures could not be read (the node was down, say); nothing else is set then.
    public var failure: String?

    public init(node: String, counters: [String: Double] = [:], gauges: [String: Double] = [:], failure: String? = nil)
    {
        self.node = node
        self.counters = counters
        self.gauges = gauges
        self.failure = failure
    }

    /// The figures between two scrapes of `node`'s metrics text: a counter missing from the first counts from zero,
    /// and one that went down (the node restarted during the run) counts from zero too.
    public init(node: String, before: String, after: String) {
        self.node = node
        let start = Self.series(in: before)
        for (name, value) in Self.series(in: after) {
            if Self.isCounter(name) {
                let earlier = start[name] ?? 0
                self.counters[name] = value >= earlier ? value - earlier : value
            } else {
                self.gauges[name] = value
            }
        }
    }

    /// The sum of a counter's increases over all its labels.
    public func total(_ name: String) -> Double { Self.sum(of: name, in: self.counters) }

    /// The sum of a gauge over all its labels.
    public func current(_ name: String) -> Double { Self.sum(of: name, in: self.gauges) }

    private static func sum(of name: String, in series: [String: Double]) -> Double {
        series.reduce(0) { sum, entry in
            entry.key == name || entry.key.hasPrefix(name + "{") ? sum + entry.value : sum
        }
    }

    /// The samples of Prometheus's text format, by series; comments, buckets and lines that do not parse are left
    /// out.
    static func series(in text: String) -> [String: Double] {
        var series: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                continue
            }
            let name = String(line[..<space])
            let bare = name.split(separator: "{", maxSplits: 1).first.map(String.init) ?? name
            guard !name.isEmpty, !bare.hasSuffix("_bucket") else { continue }
            series[name] = value
        }
        return series
    }

    private static func isCounter(_ name: String) -> Bool {
        let bare = name.split(separator: "{", maxSplits: 1).first ?? Substring(name)
        return bare.hasSuffix("_total") || bare.hasSuffix("_sum") || bare.hasSuffix("_count")
    }
}
