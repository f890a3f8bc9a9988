extension StarsOptions {
    /// Reads the command line after `stars`.
    /// - Throws: `BenchOptionsError` naming the option and what it takes.
    public init(arguments: [String]) throws(BenchOptionsError) {
        self.init()
        var index = 0
        while index < arguments.count {
            let name = arguments[index]
            index += 1
            guard let option = Self.options.first(where: { $0.name == name }) else {
                throw BenchOptionsError(name, "is not an option of hearth bench stars")
            }
            var value = ""
            if option.value != nil {
                guard index < arguments.count else { throw BenchOptionsError(name, "needs a value") }
                value = arguments[index]
                index += 1
            }
            switch name {
            case "--hot": self.hot = true
            case "--cleanup": self.cleansUp = true
            case "--nodes": self.nodes = try Self.nodes(value)
            case "--clients": self.clients = try OptionValues.positive(name, value)
            case "--posts": self.posts = try OptionValues.positive(name, value)
            case "--users": self.users = try OptionValues.positive(name, value)
            case "--duration": self.duration = try OptionValues.duration(name, value)
            case "--namespace": self.namespace = value
            case "--run": self.run = try Self.run(value)
            case "--readers":
                guard let count = Int(value), count >= 0 else {
                    throw BenchOptionsError(name, "needs a whole number, 0 or more")
                }
                self.readers = count
            case "--chaos":
                guard value == "kill-leader" else { throw BenchOptionsError(name, "takes kill-leader, not \(value)") }
                self.killsLeader = true
            case "--cluster-script": self.clusterScript = value
            case "--credential-file": self.credentialFile = value
            case "--slow-log": self.slowLog = try OptionValues.duration(name, value)
            case "--json": self.jsonFile = value
            case "--html": self.htmlFile = value
            case "--mode":
                guard let mode = Mode(rawValue: value) else {
                    let modes = Mode.allCases.map(\.rawValue).joined(separator: ", ")
                    throw BenchOptionsError(name, "takes one of \(modes), not \(value)")
                }
                self.mode = mode
            default:
                throw BenchOptionsError(name, "is declared in StarsOptions.options but this build does not read it")
            }
        }
        guard self.users >= self.clients else {
            throw BenchOptionsError(
                "--users", "must be at least --clients (\(self.clients)): every client stars as users of its own")
        }
    }

    /// The longest run id `--run` takes (the random ones are 9 characters).
    static let maximumRunLength = 16

    /// `--run`'s value: 1 to `maximumRunLength` lowercase ASCII letters and digits, so every key the run names is
    /// a valid key and its paths stay short.
    private static func run(_ text: String) throws(BenchOptionsError) -> String {
        let isRunCharacter = { (byte: UInt8) in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        guard (1...Self.maximumRunLength).contains(text.utf8.count), text.utf8.allSatisfy(isRunCharacter) else {
            throw BenchOptionsError(
                "--run", "takes 1 to \(Self.maximumRunLength) lowercase letters and digits, not \"\(text)\"")
        }
        return text
    }

    private static func nodes(_ text: String) throws(BenchOptionsError) -> [Node] {
        var nodes: [Node] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            do {
                nodes.append(try OptionValues.node("--nodes", item))
            } catch {
                throw BenchOptionsError("--nodes", "takes HOST:PORT items separated by commas, not \(item)")
            }
        }
        return nodes
    }
}
