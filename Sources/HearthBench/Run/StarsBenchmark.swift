import HearthCore
import HearthWire

/// `hearth bench stars`: connects the clients, sets up the run's posts, runs the operations for the duration with
/// a progress line each second, lets the last answers arrive, reads the posts back and checks them.
public enum StarsBenchmark {
    /// How long the last answers may take to arrive after the duration.
    static let drainTimeout: Duration = .seconds(10)

    /// Runs the benchmark; `progress` hears each progress line (and `isTerminal` says how to draw them).
    /// - Parameter connectTimeout: how long the clients may take to connect.
    /// - Throws: `StarsRunError` when the nodes cannot be reached or refuse the set-up.
    public static func run(
        _ options: StarsOptions, isTerminal: Bool, connectTimeout: Duration = .seconds(10),
        progress: @Sendable (String) -> Void
    ) async throws(StarsRunError) -> StarReport {
        var random = SystemRandomNumberGenerator()
        let workload = StarWorkload(
            run: StarWorkload.runID(using: &random), posts: options.posts, users: options.users,
            clients: options.clients, hot: options.hot)
        let clients = (0..<options.clients).map {
            StarClient(
                index: $0, workload: workload, mode: options.mode, nodes: options.nodes, namespace: options.namespace)
        }
        defer { for client in clients { client.close() } }
        try await Self.connect(clients, options, timeout: connectTimeout)
        try await Self.setUp(workload, through: clients[0])

        let started = ContinuousClock.now
        for client in clients { client.start() }
        let total = Int(options.duration.inSeconds.rounded(.up))
        var series: [StarReport.Second] = []
        var previous = 0
        for second in 1...max(1, total) {
            try? await Task.sleep(until: started + min(.seconds(second), options.duration), clock: .continuous)
            var tally = StarTally()
            for client in clients { tally.merge(client.takeWindow()) }
            let sample = StarReport.Second(
                second: second, operations: tally.operations - previous,
                p50Milliseconds: tally.window.milliseconds(at: 0.5),
                p99Milliseconds: tally.window.milliseconds(at: 0.99))
            previous = tally.operations
            series.append(sample)
            progress(ProgressLine.render(second: sample, of: total, tally: tally, isTerminal: isTerminal))
        }
        for client in clients { client.stop() }
        let seconds = (ContinuousClock.now - started).inSeconds
        let drainDeadline = ContinuousClock.now + Self.drainTimeout
        while clients.contains(where: \.isBusy), ContinuousClock.now < drainDeadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        var ledger = StarLedger()
        var tally = StarTally()
        for client in clients {
            let (clientLedger, clientTally) = client.finish()
            ledger.merge(clientLedger)
            tally.merge(clientTally)
        }
        let (posts, copies, unreadable) = await Self.readBack(workload, through: clients[0])
        let verifier = StarVerifier(workload: workload, checksCopies: options.mode == .increment)
        var report = StarReport(
            options: options, run: workload.run, seconds: min(seconds, Double(total)), tally: tally,
            violations: unreadable + verifier.violations(posts: posts, copies: copies, ledger: ledger))
        report.series = series
        return report
    }

    private static func connect(_ clients: [StarClient], _ options: StarsOptions, timeout: Duration)
        async throws(StarsRunError)
    {
        let connected = await withTaskGroup(of: Bool.self) { group in
            for client in clients { group.addTask { await client.connect(timeout: timeout) } }
            var all = true
            for await ok in group { all = all && ok }
            return all
        }
        guard connected else {
            throw StarsRunError(
                "could not connect to \(options.nodes.map(\.description).joined(separator: ", ")) within "
                    + "\(timeout): is `hearth serve` running there (HTTP port)?")
        }
    }

    private static func setUp(_ workload: StarWorkload, through client: StarClient) async throws(StarsRunError) {
        var update: [String: JSONValue] = [:]
        for post in 0..<workload.posts { update.merge(workload.setup(post)) { first, _ in first } }
        if case .failure(let error) = await client.update(update) {
            throw StarsRunError(
                "the node refused to create the run's posts (\(error)); the benchmark writes under posts/ and "
                    + "user-posts/, so the rules must let an unauthenticated client write there")
        }
    }

    /// Each post and its copy as stored, and a violation for any that could not be read.
    private static func readBack(_ workload: StarWorkload, through client: StarClient) async
        -> (posts: [Int: Node], copies: [Int: Node], unreadable: [String])
    {
        var posts: [Int: Node] = [:]
        var copies: [Int: Node] = [:]
        var unreadable: [String] = []
        for post in 0..<workload.posts {
            for (text, isCopy) in [(workload.postPath(post), false), (workload.copyPath(post), true)] {
                let path = Path(keys: text.split(separator: "/").map { Key(unchecked: String($0)) })
                switch await client.read(path) {
                case .ok(let data):
                    guard let node = try? data.tree() else {
                        unreadable.append("\(text): the node sent data that is not a tree")
                        continue
                    }
                    if isCopy { copies[post] = node } else { posts[post] = node }
                case .failure(let error):
                    unreadable.append("\(text): could not be read back (\(error))")
                }
            }
        }
        return (posts, copies, unreadable)
    }
}
