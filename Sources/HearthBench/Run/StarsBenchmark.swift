import Foundation
import HearthCore
import HearthNet
import HearthSystem
import HearthWire

/// `hearth bench stars`: connects the clients, sets up the run's posts, runs the operations for the duration with
/// a progress line each second, lets the last answers arrive, reads the posts back and checks them.
public enum StarsBenchmark {
    /// How long the last answers may take to arrive after the duration.
    static let drainTimeout: Duration = .seconds(10)

    /// How many paths one update of `--cleanup` sets to null.
    static let cleanupBatch = 500

    /// Runs the benchmark; `announce` hears where the run writes, before it writes, and `progress` each progress
    /// line (and `isTerminal` says how to draw them).
    /// - Parameter connectTimeout: how long the clients may take to connect.
    /// - Throws: `StarsRunError` when the nodes cannot be reached or refuse the set-up.
    public static func run(
        _ options: StarsOptions, isTerminal: Bool, connectTimeout: Duration = .seconds(10),
        announce: @Sendable (String) -> Void = { _ in }, progress: @Sendable (String) -> Void
    ) async throws(StarsRunError) -> StarReport {
        var random = SystemRandomNumberGenerator()
        let workload = StarWorkload(
            run: options.run ?? StarWorkload.runID(using: &random), posts: options.posts, users: options.users,
            clients: options.clients, hot: options.hot)
        announce(
            "writing under \(workload.writtenPattern) (run \(workload.run), \(workload.writtenPaths.count) paths); "
                + (options.cleansUp ? "--cleanup removes them after the checks" : "they stay after the run"))
        // Sets the run up and reads it back at the end; takes no part in the load.
        let admin = StarClient(
            index: 0, workload: workload, usesTransactions: false, nodes: options.nodes, namespace: options.namespace)
        defer { admin.close() }
        try await Self.connect([admin], options, timeout: connectTimeout)
        try await Self.setUp(workload, through: admin)
        let slow = options.slowLog.map { SlowOperations(threshold: $0) }
        let clients = try await Self.clients(options, workload, slow: slow, connectTimeout: connectTimeout)
        defer { for client in clients { client.close() } }
        let readers = (0..<options.readerCount).map {
            StarReader(index: $0, nodes: options.nodes, namespace: options.namespace)
        }
        defer { for reader in readers { reader.close() } }
        try await Self.listen(readers, options, timeout: connectTimeout)

        let chaos = try Self.chaos(options)
        let shardsAtStart = chaos?.shards() ?? [:]
        let metricsBefore = await ServerMetrics.scrape(options.nodes)
        let context = RunContext.now(nodes: options.nodes, metrics: metricsBefore)
        let started = ContinuousClock.now
        slow?.start()
        for client in clients { client.start() }
        let samples = Lock<[ThroughputRecovery.Sample]>([])
        let sampler = Task {
            while !Task.isCancelled {
                let operations = clients.reduce(0) { $0 + $1.operationsSoFar }
                samples.withLock {
                    $0.append(.init(seconds: (ContinuousClock.now - started).inSeconds, operations: operations))
                }
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        let fault = chaos.map { chaos in
            Task {
                await Self.killLeader(chaos, at: started + options.duration / 2, since: started, before: shardsAtStart)
            }
        }
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
        sampler.cancel()
        let seconds = (ContinuousClock.now - started).inSeconds
        let drainDeadline = ContinuousClock.now + Self.drainTimeout
        while clients.contains(where: \.isBusy), ContinuousClock.now < drainDeadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        let metricsAfter = await ServerMetrics.scrape(options.nodes)
        var ledger = StarLedger()
        var tally = StarTally()
        for client in clients {
            let (clientLedger, clientTally) = client.finish()
            ledger.merge(clientLedger)
            tally.merge(clientTally)
        }
        let (posts, copies, unreadable) = await Self.readBack(workload, through: admin)
        let (readerUpdates, readerViolations) = await Self.check(readers, through: admin)
        var outcome = await fault?.value
        if let killedAt = outcome?.killedAt {
            outcome?.recoverySeconds = ThroughputRecovery.seconds(after: killedAt, samples: samples.withLock { $0 })
        }
        let verifier = StarVerifier(workload: workload, checksCopies: options.mode == .increment)
        var report = StarReport(
            options: options, run: workload.run, seconds: min(seconds, Double(total)), tally: tally,
            violations: unreadable + verifier.violations(posts: posts, copies: copies, ledger: ledger)
                + readerViolations + (outcome?.failure.map { ["chaos: \($0)"] } ?? []))
        report.chaos = outcome
        report.context = context
        report.slow = slow?.entries ?? []
        report.slowOmitted = slow?.omitted ?? 0
        report.series = series
        report.readers = readers.count
        report.readerUpdates = readerUpdates
        report.server = ServerMetrics.figures(options.nodes, before: metricsBefore, after: metricsAfter)
        var leftovers = RunLeftovers(paths: workload.writtenPaths, pattern: workload.writtenPattern)
        if options.cleansUp {
            // Only now: the checks have read everything back, and a killed leader is back and ready.
            leftovers.failure = await Self.cleanUp(leftovers.paths, through: admin)
            leftovers.isRemoved = leftovers.failure == nil
        }
        report.leftovers = leftovers
        return report
    }

    /// The run's clients, connected: realtime connections, or REST clients (each with a keep-alive connection of
    /// its own, opened at its first request) spread over the nodes alike.
    private static func clients(
        _ options: StarsOptions, _ workload: StarWorkload, slow: SlowOperations?, connectTimeout: Duration
    ) async throws(StarsRunError) -> [any StarDriver] {
        var addresses: [SocketAddress] = []
        for node in options.nodes {
            do {
                addresses.append(try node.socketAddress)
            } catch {
                throw StarsRunError("\(node) is not an address REST can reach: \(error)")
            }
        }
        let deadline = ContinuousClock.now + options.duration + Self.drainTimeout + connectTimeout
        var realtime: [StarClient] = []
        var clients: [any StarDriver] = []
        for index in 0..<options.clients {
            switch Self.mode(of: index, in: options.mode) {
            case .rest:
                clients.append(
                    RESTStarClient(
                        index: index, workload: workload, address: addresses[index % addresses.count],
                        namespace: options.namespace, deadline: deadline, slow: slow))
            case let mode:
                let client = StarClient(
                    index: index, workload: workload, usesTransactions: mode == .transaction, nodes: options.nodes,
                    namespace: options.namespace, slow: slow)
                realtime.append(client)
                clients.append(client)
            }
        }
        try await Self.connect(realtime, options, timeout: connectTimeout)
        return clients
    }

    /// What client `index` runs: the run's mode, or in a mixed run, of every four clients two the fan-out, one
    /// the transaction and one REST.
    static func mode(of index: Int, in mode: StarsOptions.Mode) -> StarsOptions.Mode {
        guard mode == .mixed else { return mode }
        return [.increment, .increment, .transaction, .rest][index % 4]
    }

    private static func connect(_ clients: [StarClient], _ options: StarsOptions, timeout: Duration)
        async throws(StarsRunError)
    {
        guard await Waiting.all(clients, { await $0.connect(timeout: timeout) }) else {
            throw StarsRunError(
                "could not connect to \(options.nodes.map(\.description).joined(separator: ", ")) within "
                    + "\(timeout): is `hearth serve` running there (HTTP port)?")
        }
    }

    /// The chaos asked for, once its script is known to be there.
    private static func chaos(_ options: StarsOptions) throws(StarsRunError) -> StarChaos? {
        guard options.killsLeader else { return nil }
        guard FileManager.default.isExecutableFile(atPath: options.clusterScript) else {
            throw StarsRunError(
                "--chaos kill-leader kills and restarts nodes with \(options.clusterScript), which is not there: start "
                    + "the cluster with scripts/cluster up 3 and run from the repository, or give --cluster-script")
        }
        let file = options.credentialFile ?? ProcessInfo.processInfo.environment["HEARTH_CREDENTIAL_FILE"]
        var credential: String?
        if let file {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8),
                let line = text.split(whereSeparator: \.isNewline).map({ $0.trimmingCharacters(in: .whitespaces) })
                    .first(where: { !$0.isEmpty })
            else {
                throw StarsRunError("--credential-file \(file) cannot be read or holds no database secret")
            }
            credential = line
        }
        return StarChaos(script: options.clusterScript, nodes: options.nodes, down: .seconds(3), credential: credential)
    }

    /// At `moment`, kills the leader of the shard that committed the most since `before` was read, keeps it down,
    /// and restarts it (waiting until it is ready).
    private static func killLeader(
        _ chaos: StarChaos, at moment: ContinuousClock.Instant, since started: ContinuousClock.Instant,
        before: [Int: (leader: String, commit: Int64)]
    ) async -> ChaosOutcome {
        try? await Task.sleep(until: moment, clock: .continuous)
        guard let (shard, leader) = StarChaos.hottest(before: before, after: chaos.shards()) else {
            var outcome = ChaosOutcome(node: "-", shard: -1, killedAt: 0, downSeconds: 0)
            outcome.failure = "no node's /.cluster named the shards' leaders: is this a cluster?"
            return outcome
        }
        var outcome = ChaosOutcome(
            node: leader, shard: shard, killedAt: (ContinuousClock.now - started).inSeconds,
            downSeconds: chaos.down.inSeconds)
        if let failure = await chaos.cluster(["kill", leader]) {
            outcome.failure = failure
            return outcome
        }
        try? await Task.sleep(for: chaos.down)
        outcome.failure = await chaos.cluster(["restart", leader])
        return outcome
    }

    private static func listen(_ readers: [StarReader], _ options: StarsOptions, timeout: Duration)
        async throws(StarsRunError)
    {
        guard await Waiting.all(readers, { await $0.listen(timeout: timeout) }) else {
            throw StarsRunError("the readers could not connect within \(timeout)")
        }
    }

    /// Once the pushes stop, each reader's view of the top posts must be what the database answers for the same
    /// query; returns the pushes the readers got and a violation for each that differs.
    private static func check(_ readers: [StarReader], through admin: StarClient) async -> (Int, [String]) {
        var updates = 0
        var violations: [String] = []
        for reader in readers {
            await reader.settle(quiet: .milliseconds(300), timeout: .seconds(5))
            let view = reader.view
            updates += view.updates
            let name = "reader \(reader.index) (posts ordered by starCount, last 10)"
            if let refusal = view.refusal {
                violations.append("\(name): the listen was refused: \(refusal)")
                continue
            }
            switch await admin.read(StarReader.path, query: StarReader.query) {
            case .ok(let data):
                guard let stored = try? data.tree() else {
                    violations.append("\(name): the node sent data that is not a tree")
                    continue
                }
                if view.posts != stored {
                    violations.append(
                        "\(name): the listener ended on \(Self.summary(view.posts)) but the database answers "
                            + Self.summary(stored))
                }
            case .failure(let error):
                violations.append("\(name): the query could not be read back (\(error))")
            }
        }
        return (updates, violations)
    }

    /// `post: starCount` for each post of a query's answer.
    private static func summary(_ posts: Node) -> String {
        let items = posts.children.map { key, post in
            "\(key.string): \(post.child(Key(unchecked: "starCount")).leafValue.map { "\($0)" } ?? "-")"
        }
        return "[" + items.joined(separator: ", ") + "]"
    }

    private static func setUp(_ workload: StarWorkload, through client: StarClient) async throws(StarsRunError) {
        var update: [JSONKey: JSONValue] = [:]
        for post in 0..<workload.posts { update.merge(workload.setup(post)) { first, _ in first } }
        if case .failure(let error) = await client.update(update) {
            throw StarsRunError(
                "the node refused to create the run's posts (\(error)); the benchmark writes under posts/ and "
                    + "user-posts/, so the rules must let an unauthenticated client write there")
        }
    }

    /// Sets every path to null, `cleanupBatch` at a time, each batch one multi-path update; returns why it
    /// stopped, if it did.
    private static func cleanUp(_ paths: [String], through client: StarClient) async -> String? {
        for start in stride(from: 0, to: paths.count, by: Self.cleanupBatch) {
            let batch = paths[start..<min(paths.count, start + Self.cleanupBatch)]
            let update = Dictionary(uniqueKeysWithValues: batch.map { (JSONKey($0), JSONValue.null) })
            if case .failure(let error) = await client.update(update) {
                return "the node refused to remove the run's paths: \(error)"
            }
        }
        return nil
    }

    /// Each post and its copy as stored, and a violation for any that could not be read.
    private static func readBack(_ workload: StarWorkload, through client: StarClient) async
        -> (posts: [Int: Node], copies: [Int: Node], unreadable: [String])
    {
        var posts: [Int: Node] = [:]
        var copies: [Int: Node] = [:]
        var unreadable: [String] = []
        for post in 0..<workload.posts {
            for (path, isCopy) in [(workload.postLocation(post), false), (workload.copyLocation(post), true)] {
                let text = path.slashless
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
