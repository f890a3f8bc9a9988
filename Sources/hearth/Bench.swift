import Foundation
import HearthCore
import HearthDatabase
import HearthNode
import HearthServer
import HearthSystem

/// `hearth bench`: in-process measurements that do not need a load generator. Network throughput is measured
/// with wrk against a running node (scripts/bench-rest.sh).
enum Bench {
    /// The benchmarks and the options of those run in this process, each with its meaning and default;
    /// `stars` and `fanout` list theirs with `--help`.
    static let usage = """
        usage: hearth bench <benchmark> [options]

          hearth bench query [--children N]
                                  time ordered queries over one list of children
              --children N        the list's children (default 1000000)
          hearth bench restart --data DIR
                                  time recovering a data directory (snapshot + log tail)
              --data DIR          the data directory to open (required; a stopped node's)
          hearth bench star [--shape multi|single] [--clients N] [--seconds S]
                                  the docs' star through the core alone (no network)
              --shape multi|single  multi: the star's two copies in different shards; single: in one shard
                                  (default multi)
              --clients N         tasks starring at once, each with one star in flight (default 64)
              --seconds S         how long to run (default 5)
          hearth bench stars [options]
                                  load-test running nodes with the docs' star, then check that nothing was lost
                                  (exits 1 if something was); runs hearth-bench: `hearth bench stars --help`
                                  lists its options
          hearth bench fanout [options]
                                  time one write's events at many listeners of a node (or Redis); runs
                                  hearth-bench: `hearth bench fanout --help` lists its options
        """

    static func run(_ arguments: [String]) async throws {
        switch arguments.first {
        case let name? where ["query", "restart", "star"].contains(name) && Usage.asksForHelp(arguments.dropFirst()):
            print(self.usage)
        case "query":
            let options = try BenchOptions(Array(arguments.dropFirst()), allowed: ["--children"])
            try self.query(children: try options.positiveInt("--children") ?? 1_000_000)
        case "restart":
            let options = try BenchOptions(Array(arguments.dropFirst()), allowed: ["--data"])
            guard let directory = options.values["--data"] else { throw UsageError("restart needs --data DIR") }
            try await self.restart(directory: directory)
        case "star":
            let options = try BenchOptions(
                Array(arguments.dropFirst()), allowed: ["--shape", "--clients", "--seconds"])
            try await self.star(
                clients: try options.positiveInt("--clients") ?? 64,
                seconds: try options.positiveDouble("--seconds") ?? 5,
                shape: options.values["--shape"] ?? "multi")
        case "stars", "fanout":
            try self.loadGenerator(arguments)
        case nil, "help", "--help", "-h":
            print(self.usage)
        case let name?:
            throw UsageError(
                "unknown benchmark '\(name)': one of query, restart, star, stars, fanout")
        }
    }

    /// Builds `/list` with N children `{score, name}` and times representative queries.
    static func query(children count: Int) throws {
        let baseline = self.residentBytes()
        var started = ContinuousClock.now
        var elements: [(key: Key, node: Node)] = []
        elements.reserveCapacity(count)
        var generator = PushIDGenerator()
        var random = SystemRandomNumberGenerator()
        for index in 0..<count {
            let key = Key(unchecked: generator.next(now: 1_700_000_000_000 + Int64(index / 16), using: &random))
            let child = Node(
                children: ChildMap(sortedUniqueElements: [
                    (Key(unchecked: "name"), Node(.string("item \(index)"))),
                    (Key(unchecked: "score"), Node(.int(Int64.random(in: 0..<1_000_000, using: &random)))),
                ]))
            elements.append((key, child))
        }
        let list = Node(children: ChildMap(sortedUniqueElements: elements))
        let grown = self.residentBytes() - baseline
        print(
            "built \(count) children in \(String(format: "%.0f", self.milliseconds(since: started))) ms, "
                + "resident memory +\(grown / 1_048_576) MiB (\(grown / count) bytes per child of 3 nodes)")

        let cases: [(String, [String: String])] = [
            ("orderBy=$key limitToFirst=100", ["orderBy": "\"$key\"", "limitToFirst": "100"]),
            ("orderBy=$key limitToLast=100", ["orderBy": "\"$key\"", "limitToLast": "100"]),
            ("orderBy=score limitToLast=10", ["orderBy": "\"score\"", "limitToLast": "10"]),
            ("orderBy=score limitToLast=100", ["orderBy": "\"score\"", "limitToLast": "100"]),
            (
                "orderBy=score startAt=500000 limitToFirst=10",
                ["orderBy": "\"score\"", "startAt": "500000", "limitToFirst": "10"]
            ),
            ("orderBy=score startAt=1000 endAt=2000", ["orderBy": "\"score\"", "startAt": "1000", "endAt": "2000"]),
        ]
        let beforeIndex = self.residentBytes()
        started = ContinuousClock.now
        let score = IndexTree(list, index: .child(Path(keys: [Key(unchecked: "score")])))
        let indexBytes = self.residentBytes() - beforeIndex
        print(
            "built the .indexOn score index in \(String(format: "%.0f", self.milliseconds(since: started))) ms, "
                + "resident memory +\(indexBytes / 1_048_576) MiB (\(indexBytes / count) bytes per child)")
        for (name, parameters) in cases {
            guard let spec = try QuerySpec.rest(parameters: parameters, parseJSON: { try JSONReader.parseValue($0) })
            else { continue }
            self.report(name) { spec.evaluate(list).childCount }
            if spec.isAnswered(by: score) {
                self.report(name + " (indexed)") { spec.evaluate(list, index: score).childCount }
            }
        }
        started = ContinuousClock.now
        let key = Key(unchecked: "zzzz")
        let child = Node(children: ChildMap(sortedUniqueElements: [(Key(unchecked: "score"), Node(.int(7)))]))
        let updated = list.updatingChild(key, to: child)
        print(
            "insert one child into the 1M list: \(String(format: "%.3f", self.milliseconds(since: started))) ms (\(updated.childCount) children)"
        )
        started = ContinuousClock.now
        let reindexed = score.updating([key], old: list, new: updated)
        print(
            "keep the score index up with that insert: \(String(format: "%.3f", self.milliseconds(since: started))) ms (\(reindexed.count) children)"
        )
    }

    /// Runs `query` five times and prints its median and best times and how many children it kept.
    private static func report(_ name: String, _ query: () -> Int) {
        var runs: [Double] = []
        var kept = 0
        for _ in 0..<5 {
            let started = ContinuousClock.now
            kept = query()
            runs.append(self.milliseconds(since: started))
        }
        runs.sort()
        print(
            "\(name): median \(String(format: "%.3f", runs[2])) ms, best \(String(format: "%.3f", runs[0])) ms, \(kept) children"
        )
    }

    /// Opens a data directory the way a restarting node does and reports how long recovery took.
    static func restart(directory: String) async throws {
        var configuration = NodeConfiguration()
        configuration.dataDirectory = directory
        configuration.port = 0
        let log = Log(level: .info)
        let started = ContinuousClock.now
        let database = try await Database.open(configuration: configuration, log: log)
        let seconds = self.milliseconds(since: started) / 1000
        let megabyte = 1 << 20
        print(
            "recovered \(directory) in \(String(format: "%.2f", seconds)) s; resident "
                + "\(self.residentBytes() / megabyte) MB, peak \(self.peakResidentBytes() / megabyte) MB")
        await database.close()
    }

    /// The process's peak resident set size so far (`VmHWM` in /proc/self/status).
    static func peakResidentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return 0 }
        return kilobytes * 1024
    }

    /// The process's resident set size, from /proc/self/statm.
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    static func milliseconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }
}
