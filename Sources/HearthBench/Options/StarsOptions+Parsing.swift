extension StarsOptions {
    /// The usage line of `hearth bench stars`.
    public static let usage = """
        usage: hearth bench stars [--nodes HOST:PORT[,HOST:PORT…]] [--clients N] [--posts N] [--users N]
                                  [--duration 30s] [--mode increment|transaction|rest|mixed] [--hot] [--readers N]
                                  [--namespace NAME] [--chaos kill-leader [--cluster-script PATH]]
                                  [--json FILE] [--html FILE]
        """

    /// Reads the command line after `stars`.
    /// - Throws: `StarsOptionsError` naming the option and what it takes.
    public init(arguments: [String]) throws(StarsOptionsError) {
        self.init()
        var index = 0
        while index < arguments.count {
            let name = arguments[index]
            index += 1
            if name == "--hot" {
                self.hot = true
                continue
            }
            guard index < arguments.count else { throw StarsOptionsError(name, "needs a value") }
            let value = arguments[index]
            index += 1
            switch name {
            case "--nodes": self.nodes = try Self.nodes(value)
            case "--clients": self.clients = try Self.positive(name, value)
            case "--posts": self.posts = try Self.positive(name, value)
            case "--users": self.users = try Self.positive(name, value)
            case "--duration": self.duration = try Self.duration(value)
            case "--namespace": self.namespace = value
            case "--readers":
                guard let count = Int(value), count >= 0 else {
                    throw StarsOptionsError(name, "needs a whole number, 0 or more")
                }
                self.readers = count
            case "--chaos":
                guard value == "kill-leader" else { throw StarsOptionsError(name, "takes kill-leader, not \(value)") }
                self.killsLeader = true
            case "--cluster-script": self.clusterScript = value
            case "--json": self.jsonFile = value
            case "--html": self.htmlFile = value
            case "--mode":
                guard let mode = Mode(rawValue: value) else {
                    let modes = Mode.allCases.map(\.rawValue).joined(separator: ", ")
                    throw StarsOptionsError(name, "takes one of \(modes), not \(value)")
                }
                self.mode = mode
            default:
                throw StarsOptionsError(name, "is not an option of hearth bench stars")
            }
        }
        guard self.users >= self.clients else {
            throw StarsOptionsError(
                "--users", "must be at least --clients (\(self.clients)): every client stars as users of its own")
        }
    }

    private static func positive(_ name: String, _ value: String) throws(StarsOptionsError) -> Int {
        guard let number = Int(value), number > 0 else {
            throw StarsOptionsError(name, "needs a positive whole number")
        }
        return number
    }

    private static func nodes(_ text: String) throws(StarsOptionsError) -> [Node] {
        var nodes: [Node] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let colon = item.lastIndex(of: ":"), let port = Int(item[item.index(after: colon)...]),
                (1...65535).contains(port), colon > item.startIndex
            else { throw StarsOptionsError("--nodes", "takes HOST:PORT items separated by commas, not \(item)") }
            nodes.append(Node(host: String(item[..<colon]), port: port))
        }
        return nodes
    }

    /// `30s`, `500ms`, `2m`, or a number of seconds.
    static func duration(_ text: String) throws(StarsOptionsError) -> Duration {
        let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("", 1)]
        for unit in units where text.hasSuffix(unit.suffix) {
            if let number = Double(text.dropLast(unit.suffix.count)), number > 0, number.isFinite {
                return .milliseconds(Int64((number * unit.seconds * 1000).rounded()))
            }
        }
        throw StarsOptionsError("--duration", "takes a length such as 30s, 500ms or 2m, not \(text)")
    }
}
