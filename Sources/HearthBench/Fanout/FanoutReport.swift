public import HearthCore

/// What a fan-out run measured. Latency is each event's: from its write's send to the moment a listener's loop
/// read it.
public struct FanoutReport: Sendable {
    public var options: FanoutOptions
    /// Events that reached a listener (one per listener per write when nothing is lost).
    public var delivered: Int
    /// Listeners that got every write's event.
    public var complete: Int
    /// Events delivered per second, from the first write's send to the last event's arrival.
    public var eventsPerSecond: Double
    /// From the last write's send to the last event's arrival.
    public var lagSeconds: Double
    public var latency: LatencyHistogram
    /// Server CPU time (user and system) per delivered event, when its process was named.
    public var serverMicrosecondsPerEvent: Double?
    /// Events read twice by one listener, or naming a write the run did not make.
    public var unexpected: Int
    /// Seconds the listeners took to connect and subscribe.
    public var subscribeSeconds: Double

    /// Every listener got every event once.
    public var isComplete: Bool {
        self.complete == self.options.listeners && self.delivered == self.options.listeners * self.options.writes
            && self.unexpected == 0
    }

    public var json: JSONValue {
        var fields: [JSONKey: JSONValue] = [
            "target": .string(self.options.target.rawValue), "writer": .string(self.options.writer.rawValue),
            "listeners": .int(Int64(self.options.listeners)),
            "writes": .int(Int64(self.options.writes)), "intervalMs": .double(self.options.interval.inSeconds * 1000),
            "threads": .int(Int64(self.options.threads)), "delivered": .int(Int64(self.delivered)),
            "complete": .int(Int64(self.complete)), "eventsPerSecond": .double(self.eventsPerSecond),
            "lagSeconds": .double(self.lagSeconds), "unexpected": .int(Int64(self.unexpected)),
            "subscribeSeconds": .double(self.subscribeSeconds), "ok": .bool(self.isComplete),
            "latencyMs": .object([
                "p50": .double(self.latency.milliseconds(at: 0.5)), "p90": .double(self.latency.milliseconds(at: 0.9)),
                "p99": .double(self.latency.milliseconds(at: 0.99)), "max": .double(self.latency.maximumMilliseconds),
            ]),
        ]
        if let cpu = self.serverMicrosecondsPerEvent { fields["serverMicrosecondsPerEvent"] = .double(cpu) }
        return .object(fields)
    }

    public var text: String {
        let options = self.options
        let pace =
            options.interval == .zero ? "all at once" : "one every \(Self.format(options.interval.inSeconds * 1000)) ms"
        var lines = [
            "hearth bench fanout: \(options.target.rawValue) at \(options.server), \(options.listeners) listeners, "
                + "\(options.writes) writes \(pace)" + (options.writer == .rest ? " as pipelined REST PUTs" : ""),
            "subscribed   in \(Self.format(self.subscribeSeconds)) s",
            "delivered    \(self.delivered) of \(options.listeners * options.writes) events, "
                + "\(Self.format(self.eventsPerSecond)) /s, lag after the last write \(Self.format(self.lagSeconds)) s",
            "latency ms   p50 \(Self.format(self.latency.milliseconds(at: 0.5)))  "
                + "p90 \(Self.format(self.latency.milliseconds(at: 0.9)))  "
                + "p99 \(Self.format(self.latency.milliseconds(at: 0.99)))  max \(Self.format(self.latency.maximumMilliseconds))",
        ]
        if let cpu = self.serverMicrosecondsPerEvent { lines.append("server CPU   \(Self.format(cpu)) µs per event") }
        lines.append(
            self.isComplete
                ? "checks       ok: every listener got every event once"
                : "checks       FAILED: \(options.listeners - self.complete) listeners missed events, "
                    + "\(self.unexpected) unexpected")
        return lines.joined(separator: "\n")
    }

    private static func format(_ value: Double) -> String {
        value >= 100 ? String(Int(value.rounded())) : String(Double(Int(value * 10)) / 10)
    }
}
