import HearthCore

/// The report's latency by kind of operation and its server figures, as JSON and as lines of text.
extension StarReport {
    /// A histogram's percentiles and maximum in milliseconds, named as `latencyMs` names them.
    static func percentilesJSON(_ histogram: LatencyHistogram) -> JSONValue {
        var latency: [JSONKey: JSONValue] = ["max": .double(histogram.maximumMilliseconds)]
        for (name, fraction) in Self.percentiles {
            latency[JSONKey(name)] = .double(histogram.milliseconds(at: fraction))
        }
        return .object(latency)
    }

    /// A histogram's percentiles and maximum as the text shows them.
    static func percentilesText(_ histogram: LatencyHistogram) -> String {
        (Self.percentiles.map { "\($0.name) \(Self.format(histogram.milliseconds(at: $0.fraction)))" }
            + ["max \(Self.format(histogram.maximumMilliseconds))"]).joined(separator: "  ")
    }

    /// `latencyMsByOperation`: each kind of operation's percentiles.
    var operationsJSON: JSONValue {
        JSONValue(members: self.tally.byOperation.mapValues(Self.percentilesJSON))
    }

    /// `server`: each node's counters (their increase over the run) and gauges, or why they could not be read.
    var serverJSON: JSONValue {
        .array(
            self.server.map { figures in
                .object([
                    "node": .string(figures.node),
                    "counters": JSONValue(members: figures.counters.mapValues { .double($0) }),
                    "gauges": JSONValue(members: figures.gauges.mapValues { .double($0) }),
                    "failure": figures.failure.map { .string($0) } ?? .null,
                ])
            })
    }

    /// A latency line per kind of operation, when the run mixed kinds.
    var operationLines: [String] {
        guard self.tally.byOperation.count > 1 else { return [] }
        return self.tally.byOperation.sorted { $0.key < $1.key }.map { kind, histogram in
            "  " + kind + String(repeating: " ", count: max(1, 12 - kind.count)) + Self.percentilesText(histogram)
        }
    }

    /// A line per node: the requests it served, what its log wrote, and its sessions at the end.
    var serverLines: [String] {
        self.server.map { figures in
            let head = "server       \(figures.node): "
            if let failure = figures.failure { return head + failure }
            let realtime = Int(figures.total("hearth_wire_requests_total"))
            let rest = Int(figures.total("hearth_http_requests_total"))
            let fsyncs = Int(figures.total("hearth_wal_fsyncs_total"))
            let records = Int(figures.total("hearth_wal_records_total"))
            let sessions = Int(figures.current("hearth_wire_sessions"))
            return head
                + "\(realtime) realtime and \(rest) REST requests, \(fsyncs) log fsyncs for \(records) records, "
                + "\(sessions) realtime sessions open"
        }
    }
}
