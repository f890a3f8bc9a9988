import Testing

@testable import HearthBench

/// The command line of `hearth bench stars`: defaults, every option, and refusals that name the option.
@Suite struct StarsOptionsTests {
    @Test func defaultsAreTheIssuesShape() throws {
        let options = try StarsOptions(arguments: [])
        #expect(options.nodes == [StarsOptions.Node(host: "127.0.0.1", port: 9000)])
        #expect(options.clients == 64 && options.posts == 20 && options.users == 1000)
        #expect(options.duration == .seconds(30) && options.mode == .increment && !options.hot)
    }

    @Test func readsEveryOption() throws {
        let options = try StarsOptions(arguments: [
            "--nodes", "127.0.0.1:9001,127.0.0.1:9002,::1:9003", "--clients", "8", "--posts", "3", "--users", "80",
            "--duration", "1.5m", "--mode", "transaction", "--hot", "--namespace", "stars", "--json", "out.json",
            "--html", "out.html",
        ])
        #expect(options.nodes.map(\.description) == ["127.0.0.1:9001", "127.0.0.1:9002", "::1:9003"])
        #expect(options.clients == 8 && options.posts == 3 && options.users == 80)
        #expect(options.duration == .seconds(90) && options.mode == .transaction && options.hot)
        #expect(options.namespace == "stars" && options.jsonFile == "out.json" && options.htmlFile == "out.html")
        #expect(try StarsOptions(arguments: ["--mode", "rest"]).mode == .rest)
        #expect(try StarsOptions(arguments: ["--mode", "mixed"]).readerCount == 4 && options.readerCount == 0)
        #expect(try StarsOptions(arguments: ["--readers", "2"]).readerCount == 2)
    }

    /// `--slow-log` takes a length; the log keeps only the operations longer than it, in the order they ended, and the
    /// report lists them.
    @Test func theSlowLogKeepsWhatIsSlowerThanItsLength() throws {
        #expect(try StarsOptions(arguments: ["--slow-log", "2s"]).slowLog == .seconds(2))
        #expect(try StarsOptions(arguments: []).slowLog == nil)
        #expect(throws: BenchOptionsError.self) { try StarsOptions(arguments: ["--slow-log", "soon"]) }
        let slow = SlowOperations(threshold: .seconds(2))
        slow.start()
        slow.note("rest", client: 3, node: "127.0.0.1:9001", took: .milliseconds(1_999), attempts: 2)
        slow.note("transaction", client: 2, node: "realtime", took: .milliseconds(2_500), attempts: 7)
        #expect(slow.entries.map(\.kind) == ["transaction"])
        #expect(slow.entries.first?.attempts == 7 && slow.entries.first?.seconds == 2.5)
        var report = StarReport(
            options: try StarsOptions(arguments: ["--slow-log", "2s"]), run: "r", seconds: 1, tally: StarTally(),
            violations: [])
        report.slow = slow.entries
        #expect(report.text.contains("slow         1 operation(s) over 2 s"))
        #expect(report.text.contains("transaction client 2 (realtime) took 2.5 s, 7 attempt(s)"))
    }

    /// `--run` fixes the run's id (two builds compared see their posts on the same shards); only a short id of
    /// lowercase letters and digits is taken, so every name the run writes stays a valid key.
    @Test func theRunIdIsFixedByRunAndItsNamesStayKeys() throws {
        #expect(try StarsOptions(arguments: []).run == nil)
        #expect(try StarsOptions(arguments: ["--run", "ab12"]).run == "ab12")
        #expect(try StarsOptions(arguments: ["--run", "r0123456789abcde"]).run == "r0123456789abcde")
        for bad in ["", "R1", "a/b", "a.b", "a b", "a-b", "ü", "r0123456789abcdef"] {
            #expect(throws: BenchOptionsError.self) { try StarsOptions(arguments: ["--run", bad]) }
        }
        #expect(throws: BenchOptionsError.self) { try StarsOptions(arguments: ["--run"]) }
        let workload = StarWorkload(run: "ab12", posts: 3, users: 8, clients: 2, hot: false)
        #expect(workload.postPath(2) == "posts/ab12-p2" && workload.copyPath(2) == "user-posts/ab12-a2/ab12-p2")
    }

    @Test func aMixedRunSharesItsClientsTwoOneOne() {
        let modes = (0..<8).map { StarsBenchmark.mode(of: $0, in: .mixed) }
        #expect(modes == [.increment, .increment, .transaction, .rest, .increment, .increment, .transaction, .rest])
        #expect(StarsBenchmark.mode(of: 3, in: .rest) == .rest)
    }

    @Test func durationsTakeTheirUnits() throws {
        #expect(try OptionValues.duration("--duration", "30s") == .seconds(30))
        #expect(try OptionValues.duration("--duration", "500ms") == .milliseconds(500))
        #expect(try OptionValues.duration("--duration", "2m") == .seconds(120))
        #expect(try OptionValues.duration("--duration", "7") == .seconds(7))
        for bad in ["", "s", "-1s", "0", "10sm", "abc", "0.0001ms", "1e300s"] {
            #expect(throws: BenchOptionsError.self, "\(bad)") { try OptionValues.duration("--duration", bad) }
        }
    }

    @Test func mistakesNameTheirOption() {
        let cases: [([String], String)] = [
            (["--clients", "0"], "--clients"), (["--posts"], "--posts"), (["--nodes", "localhost"], "--nodes"),
            (["--nodes", "127.0.0.1:70000"], "--nodes"), (["--mode", "fast"], "--mode"),
            (["--duration", "soon"], "--duration"), (["--speed", "1"], "--speed"),
            (["--clients", "100", "--users", "50"], "--users"), (["--readers", "-1"], "--readers"),
        ]
        for (arguments, option) in cases {
            do {
                _ = try StarsOptions(arguments: arguments)
                Issue.record("\(arguments) was accepted")
            } catch {
                #expect(error.option == option, "\(arguments): \(error)")
            }
        }
    }

    /// `--cleanup` takes no value and is off unless given.
    @Test func cleanupIsAFlag() throws {
        #expect(try !StarsOptions(arguments: []).cleansUp)
        let options = try StarsOptions(arguments: ["--cleanup", "--posts", "3"])
        #expect(options.cleansUp && options.posts == 3)
    }
}
