extension FanoutOptions {
    /// The usage text of `hearth bench fanout`.
    public static let usage = """
        usage: hearth bench fanout [--target hearth|redis] [--server HOST:PORT] [--listeners N] [--writes N]
                                   [--interval 1s|200ms|0] [--threads N] [--server-pid PID] [--namespace NAME]
                                   [--json FILE]
          N listeners on one location of a Hearth node (realtime protocol) or one Redis channel, then one small
          write under it every --interval (0: all at once); reports each event's latency from its write's send to
          its arrival at a listener (p50, p99, max), events delivered per second, and with --server-pid the
          server's CPU per event. Exits 1 when some listener missed an event.
        """

    /// Reads the command line after `fanout`.
    /// - Throws: `BenchOptionsError` naming the option and what it takes.
    public init(arguments: [String]) throws(BenchOptionsError) {
        self.init()
        var index = 0
        while index < arguments.count {
            let name = arguments[index]
            guard index + 1 < arguments.count else { throw BenchOptionsError(name, "needs a value") }
            let value = arguments[index + 1]
            index += 2
            switch name {
            case "--target":
                guard let target = Target(rawValue: value) else {
                    throw BenchOptionsError(name, "takes hearth or redis, not \(value)")
                }
                self.target = target
            case "--server": self.server = try OptionValues.node(name, value)
            case "--listeners": self.listeners = try OptionValues.positive(name, value)
            case "--writes":
                self.writes = try OptionValues.positive(name, value)
                guard self.writes < Self.maximumWrites else {
                    throw BenchOptionsError(name, "takes at most \(Self.maximumWrites - 1)")
                }
            case "--interval": self.interval = try OptionValues.duration(name, value, allowsZero: true)
            case "--threads": self.threads = try OptionValues.positive(name, value)
            case "--server-pid":
                guard let pid = Int32(value), pid > 0 else { throw BenchOptionsError(name, "needs a process id") }
                self.serverPID = pid
            case "--namespace": self.namespace = value
            case "--json": self.jsonFile = value
            default: throw BenchOptionsError(name, "is not an option of hearth bench fanout")
            }
        }
    }

    /// One more than the highest write number `writeDigits` digits can carry.
    static var maximumWrites: Int {
        (0..<Self.writeDigits).reduce(1) { product, _ in product * 10 }
    }
}
