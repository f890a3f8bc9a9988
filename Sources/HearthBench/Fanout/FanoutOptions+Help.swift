extension FanoutOptions {
    /// Every option `hearth bench fanout` takes, with its meaning and default (the defaults read from `init()`).
    public static let options: [BenchOption] = {
        let defaults = FanoutOptions()
        return [
            BenchOption(
                "--target", "hearth|redis",
                "hearth: realtime-protocol listens on /room of a Hearth node; redis: "
                    + "SUBSCRIBE on one Redis channel (the peer figure)", default: defaults.target.rawValue),
            BenchOption(
                "--writer", "realtime|rest",
                "how the writes reach a Hearth node: realtime-protocol puts on a WebSocket, or PUT requests "
                    + "pipelined on one keep-alive HTTP/1.1 connection (as firebase-admin writes)",
                default: defaults.writer.rawValue),
            BenchOption(
                "--server", "HOST:PORT", "the server the listeners and the writer talk to",
                default: "\(defaults.server)"),
            BenchOption("--listeners", "N", "connections listening", default: "\(defaults.listeners)"),
            BenchOption(
                "--writes", "N",
                "small writes under the location, each one event per listener; at most "
                    + "\(Self.maximumWrites - 1)", default: "\(defaults.writes)"),
            BenchOption(
                "--interval", "LENGTH", "time between two writes: 1s, 200ms, or 0 to send them all at once",
                default: OptionValues.text(of: defaults.interval)),
            BenchOption(
                "--threads", "N", "threads reading the listeners' sockets, each an event loop over its share",
                default: "\(defaults.threads)"),
            BenchOption(
                "--server-pid", "PID",
                "the server's process, whose CPU time (from /proc) is divided by the events "
                    + "delivered", default: "none: no CPU figure"),
            BenchOption(
                "--namespace", "NAME", "the namespace written to", default: "\"\(defaults.namespace)\""),
            BenchOption("--json", "FILE", "write the report as JSON to FILE", default: "none"),
        ]
    }()

    /// The help of `hearth bench fanout`.
    public static let usage = BenchOption.help(
        synopsis: """
            usage: hearth bench fanout [options]
              N listeners on one location of a Hearth node (realtime protocol) or one Redis channel, then one small
              write under it every --interval (for Hearth, a realtime put or, with --writer rest, a PUT pipelined on
              one keep-alive connection); reports each event's latency from its write's send to its arrival at
              a listener (p50, p99, max), events delivered per second, and with --server-pid the server's CPU per
              event. Exits 1 when some listener missed an event.
            """,
        options: Self.options)
}
