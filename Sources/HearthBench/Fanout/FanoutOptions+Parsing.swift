extension FanoutOptions {
    /// Reads the command line after `fanout`.
    /// - Throws: `BenchOptionsError` naming the option and what it takes.
    public init(arguments: [String]) throws(BenchOptionsError) {
        self.init()
        var index = 0
        while index < arguments.count {
            let name = arguments[index]
            guard Self.options.contains(where: { $0.name == name }) else {
                throw BenchOptionsError(name, "is not an option of hearth bench fanout")
            }
            guard index + 1 < arguments.count else { throw BenchOptionsError(name, "needs a value") }
            let value = arguments[index + 1]
            index += 2
            switch name {
            case "--target":
                guard let target = Target(rawValue: value) else {
                    throw BenchOptionsError(name, "takes hearth or redis, not \(value)")
                }
                self.target = target
            case "--writer":
                guard let writer = Writer(rawValue: value) else {
                    throw BenchOptionsError(name, "takes realtime or rest, not \(value)")
                }
                self.writer = writer
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
            default:
                throw BenchOptionsError(name, "is declared in FanoutOptions.options but this build does not read it")
            }
        }
        guard self.writer == .realtime || self.target == .hearth else {
            throw BenchOptionsError("--writer", "rest writes to a Hearth node; Redis takes PUBLISH only")
        }
    }

    /// One more than the highest write number `writeDigits` digits can carry.
    static var maximumWrites: Int {
        (0..<Self.writeDigits).reduce(1) { product, _ in product * 10 }
    }
}
