public import HearthCore

extension StarReport {
    /// The report as JSON: `opsPerSecond`, `invariantsOk`, `gaveUp`, `latencyMs` (p50, p90, p99, p999, max), the
    /// same by kind of operation (`latencyMsByOperation`), each node's `server` figures from `/.metrics`,
    /// `connectionFailures`, the operations slower than `--slow-log` (`slow`), what the run left (`leftPaths`, `cleanedUp`), when, where and with which versions it ran
    /// (`context`), and the rest, for scripts.
    public var json: JSONValue {
        let attempts = self.tally.attempts.map { (JSONKey(String($0.key)), JSONValue.int(Int64($0.value))) }
        var object: [JSONKey: JSONValue] = [
            "mode": .string(self.options.mode.rawValue), "hot": .bool(self.options.hot),
            "nodes": .array(self.options.nodes.map { .string($0.description) }),
            "clients": .int(Int64(self.options.clients)), "posts": .int(Int64(self.options.posts)),
            "users": .int(Int64(self.options.users)), "run": .string(self.run), "seconds": .double(self.seconds),
            "operations": .int(Int64(self.tally.operations)), "opsPerSecond": .double(self.opsPerSecond),
            "latencyMs": Self.percentilesJSON(self.tally.latency), "latencyMsByOperation": self.operationsJSON,
            "server": self.serverJSON, "attempts": .object(Dictionary(uniqueKeysWithValues: attempts)),
            "retries": .int(Int64(self.tally.retries)), "gaveUp": .int(Int64(self.tally.gaveUp)),
            "errors": JSONValue(members: self.tally.errors.mapValues { .int(Int64($0)) }),
            "readers": .int(Int64(self.readers)), "readerUpdates": .int(Int64(self.readerUpdates)),
            "chaos": self.chaos.map { chaos in
                .object([
                    "node": .string(chaos.node), "shard": .int(Int64(chaos.shard)),
                    "killedAtSeconds": .double(chaos.killedAt), "downSeconds": .double(chaos.downSeconds),
                    "recoveryMs": chaos.recoverySeconds.map { .double($0 * 1000) } ?? .null,
                    "failure": chaos.failure.map { .string($0) } ?? .null,
                ])
            } ?? .null,
            "invariantsOk": .bool(self.invariantsOk), "violations": .array(self.violations.map { .string($0) }),
            "series": .array(
                self.series.map {
                    .object([
                        "second": .int(Int64($0.second)), "operations": .int(Int64($0.operations)),
                        "p50Ms": .double($0.p50Milliseconds), "p99Ms": .double($0.p99Milliseconds),
                    ])
                }),
        ]
        object["connectionFailures"] = .int(Int64(self.tally.connectionFailures))
        object["slowOmitted"] = .int(Int64(self.slowOmitted))
        object["slow"] = .array(
            self.slow.map { entry in
                .object([
                    "kind": .string(entry.kind), "client": .int(Int64(entry.client)), "node": .string(entry.node),
                    "endedAtSeconds": .double(entry.endedAt), "seconds": .double(entry.seconds),
                    "attempts": .int(Int64(entry.attempts)),
                ])
            })
        object["leftPaths"] = .int(Int64(self.leftPaths))
        object["cleanedUp"] = .bool(self.leftovers?.isRemoved == true)
        object["context"] =
            self.context.map { context in
                .object([
                    "startedUTC": .string(context.startedUTC), "host": .string(context.host),
                    "benchVersion": .string(context.benchVersion),
                    "nodeVersions": .array(context.nodeVersions.map { .string($0) }),
                ])
            } ?? .null
        return .object(object)
    }

    /// The report for people: throughput, latency percentiles, attempts, errors and the checks.
    public var text: String {
        var lines =
            [
                "hearth bench stars: \(self.options.mode.rawValue)\(self.options.hot ? " --hot" : ""), "
                    + "\(self.options.clients) clients over \(self.options.nodes.count) node(s), run \(self.run)",
                "operations   \(self.tally.operations) in \(Self.format(self.seconds)) s: \(Self.format(self.opsPerSecond)) /s",
                "latency ms   " + Self.percentilesText(self.tally.latency),
            ] + self.operationLines
        if self.options.mode != .increment {
            let attempts = self.tally.attempts.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
            lines.append("attempts     " + (attempts.isEmpty ? "none committed" : attempts.joined(separator: ", ")))
            lines.append("retries      \(self.tally.retries), gave up \(self.tally.gaveUp)")
        }
        if self.readers > 0 {
            lines.append("readers      \(self.readers), \(self.readerUpdates) pushes of the top posts")
        }
        if let chaos = self.chaos {
            let back = chaos.recoverySeconds.map { "throughput back after \(Self.format($0 * 1000)) ms" }
            lines.append(
                "chaos        killed \(chaos.node) (leader of shard \(chaos.shard)) at \(Self.format(chaos.killedAt)) s, "
                    + "down \(Self.format(chaos.downSeconds)) s; "
                    + (back ?? "throughput did not come back within the run"))
        }
        if let threshold = self.options.slowLog {
            lines.append(
                "slow         \(self.slow.count + self.slowOmitted) operation(s) over "
                    + "\(Self.format(threshold.inSeconds)) s"
                    + (self.slowOmitted > 0 ? " (the first \(self.slow.count) listed)" : ""))
            lines += self.slow.map { entry in
                "  ended \(Self.format(entry.endedAt)) s  \(entry.kind) client \(entry.client) (\(entry.node)) took "
                    + "\(Self.format(entry.seconds)) s, \(entry.attempts) attempt(s)"
            }
        }
        lines += self.serverLines
        let errors = self.tally.errors.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        lines.append("errors       " + (errors.isEmpty ? "none" : errors.joined(separator: ", ")))
        if self.tally.connectionFailures > 0 {
            lines.append(
                "connections  \(self.tally.connectionFailures) failed connects (a node away; clients back off 50 ms "
                    + "to 1 s between them)")
        }
        if self.invariantsOk {
            lines.append(
                "checks       ok: every starCount equals its stars, every acknowledged star is stored, the total is "
                    + "exact" + (self.readers > 0 ? ", every reader ended on the database's top posts" : ""))
        } else {
            lines.append("checks       FAILED, \(self.violations.count) violation(s):")
            lines += self.violations.prefix(50).map { "  \($0)" }
        }
        if let leftovers = self.leftovers, let node = self.options.nodes.first {
            lines += leftovers.lines(node: node, namespace: self.options.namespace)
        }
        return lines.joined(separator: "\n")
    }

    /// How many paths the run left in the database (none once `--cleanup` removed them).
    var leftPaths: Int {
        guard let leftovers = self.leftovers, !leftovers.isRemoved else { return 0 }
        return leftovers.paths.count
    }

    /// A number with at most one decimal, as the text shows it.
    static func format(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? String(Int64(tenths / 10)) : String(tenths / 10)
    }
}
