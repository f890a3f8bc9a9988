import Foundation
import HearthNet
import HearthSystem

/// `hearth bench fanout`: opens the listeners over `threads` event loops, waits until every one is subscribed,
/// sends the writes at their pace from one writer, waits for every event (or 60 s after the last write), and
/// reports each event's latency.
public enum FanoutBenchmark {
    /// Connections dialed and not yet subscribed at any moment: more would overflow the server's accept backlog
    /// and leave dials waiting for SYN retries.
    static let dialsInFlight = 256
    /// How long after the last write the run waits for events still on their way.
    static let settleTime: Duration = .seconds(60)

    public static func run(_ options: FanoutOptions) async throws(FanoutRunError) -> FanoutReport {
        let limit = DescriptorLimit.raiseToHard()
        guard options.listeners + DescriptorLimit.reserved <= limit.soft else {
            throw FanoutRunError(
                "\(options.listeners) listeners need as many descriptors, and this process may open \(limit.soft) "
                    + "(`ulimit -n`); ask for fewer listeners or raise the limit")
        }
        let address: SocketAddress
        do {
            address = try SocketAddress(host: options.server.host, port: options.server.port)
        } catch {
            throw FanoutRunError("--server \(options.server): \(error.message)")
        }
        let loops = try Self.startLoops(options.threads)
        let perLoop = (options.listeners + options.threads - 1) / options.threads
        let arrivals = loops.map { _ in FanoutArrivals(listeners: perLoop, writes: options.writes) }
        do {
            let subscribeSeconds = try await Self.subscribe(options, address: address, loops: loops, arrivals: arrivals)
            let report = try await Self.measure(options, arrivals: arrivals, subscribeSeconds: subscribeSeconds)
            await Self.stop(loops)
            return report
        } catch {
            await Self.stop(loops)
            throw error
        }
    }

    private static func startLoops(_ count: Int) throws(FanoutRunError) -> [EventLoop] {
        var loops: [EventLoop] = []
        for _ in 0..<count {
            do {
                loops.append(try EventLoop())
            } catch {
                throw FanoutRunError("Could not start an event loop: \(error.message)")
            }
        }
        return loops
    }

    private static func stop(_ loops: [EventLoop]) async {
        for loop in loops { try? await loop.shutdown(gracePeriod: .seconds(1)) }
    }

    /// Dials every listener, a bounded number at a time, and returns the seconds until all were subscribed.
    private static func subscribe(
        _ options: FanoutOptions, address: SocketAddress, loops: [EventLoop], arrivals: [FanoutArrivals]
    ) async throws(FanoutRunError) -> Double {
        let started = ContinuousClock.now
        let deadline = started + .seconds(30) + .milliseconds(5 * options.listeners)
        var dialed = 0
        while true {
            let (ready, failures) = Self.subscribed(arrivals)
            if let failure = failures.first {
                throw FanoutRunError(
                    "\(failures.count) listeners failed before they were subscribed, the first: \(failure) (is "
                        + "\(options.server) up, and a \(options.target.rawValue) server?)")
            }
            if ready == options.listeners { return (ContinuousClock.now - started).inSeconds }
            guard ContinuousClock.now < deadline else {
                throw FanoutRunError(
                    "Only \(ready) of \(options.listeners) listeners were subscribed after "
                        + "\(Int((ContinuousClock.now - started).inSeconds)) s; is \(options.server) a "
                        + "\(options.target.rawValue) server?")
            }
            var started = 0
            while dialed < options.listeners, dialed - ready < Self.dialsInFlight {
                let loop = dialed % loops.count
                let (slot, sink) = (dialed / loops.count, arrivals[loop])
                loops[loop].connect(to: address, timeout: .seconds(10)) {
                    FanoutListener(
                        target: options.target, server: options.server.description, namespace: options.namespace,
                        slot: slot, arrivals: sink)
                }
                dialed += 1
                started += 1
            }
            if started == 0 { try? await Task.sleep(for: .milliseconds(2)) }
        }
    }

    private static func subscribed(_ arrivals: [FanoutArrivals]) -> (ready: Int, failures: [String]) {
        arrivals.reduce(into: (0, [])) { total, sink in
            sink.state.withLock { state in
                total.0 += state.ready
                total.1 += state.failures
            }
        }
    }

    /// Sends the writes at their pace, confirms them, waits for the events, and reads the arrivals.
    private static func measure(
        _ options: FanoutOptions, arrivals: [FanoutArrivals], subscribeSeconds: Double
    ) async throws(FanoutRunError) -> FanoutReport {
        let deadline = ContinuousClock.now + options.interval * options.writes + Self.settleTime
        var writer = try FanoutWriter(options, before: deadline)
        defer { writer.close() }
        var random = BufferedSystemRandom()
        let writes = (0..<options.writes).map { options.write($0, using: &random) }
        let cpuBefore = options.serverPID.flatMap(Self.cpuSeconds)
        let start = MonotonicClock.now()
        var sent: [UInt64] = []
        if options.interval == .zero {
            sent = Array(repeating: start, count: writes.count)
            try writer.send(writes.flatMap { $0 })
        } else {
            let step = MonotonicClock.nanoseconds(options.interval.inSeconds)
            for (index, write) in writes.enumerated() {
                let due = start + UInt64(index) * step
                let now = MonotonicClock.now()
                if due > now { try? await Task.sleep(for: .nanoseconds(due - now)) }
                sent.append(MonotonicClock.now())
                try writer.send(write)
            }
        }
        try writer.confirm(options.writes)
        while ContinuousClock.now < deadline, !Self.allComplete(arrivals, options.listeners) {
            try? await Task.sleep(for: .milliseconds(5))
        }
        let cpuAfter = options.serverPID.flatMap(Self.cpuSeconds)
        var report = Self.tally(options, arrivals: arrivals, sent: sent, start: start)
        report.subscribeSeconds = subscribeSeconds
        if let cpuBefore, let cpuAfter, report.delivered > 0 {
            report.serverMicrosecondsPerEvent = (cpuAfter - cpuBefore) / Double(report.delivered) * 1e6
        }
        return report
    }

    private static func allComplete(_ arrivals: [FanoutArrivals], _ listeners: Int) -> Bool {
        arrivals.reduce(0) { total, sink in total + sink.state.withLock { $0.complete } } >= listeners
    }

    /// The report from every loop's arrival times and the writes' send times.
    static func tally(
        _ options: FanoutOptions, arrivals: [FanoutArrivals], sent: [UInt64], start: UInt64
    ) -> FanoutReport {
        var latency = LatencyHistogram()
        var (delivered, complete, unexpected, last) = (0, 0, 0, start)
        for sink in arrivals {
            sink.state.withLock { state in
                complete += state.complete
                unexpected += state.unexpected
                for (offset, time) in state.times.enumerated() where time != 0 {
                    let write = offset % options.writes
                    delivered += 1
                    last = max(last, time)
                    latency.record(microseconds: Double(time > sent[write] ? time - sent[write] : 0) / 1000)
                }
            }
        }
        let span = Double(last - start) / 1e9
        let lag = Double(last &- (sent.last ?? start)) / 1e9
        return FanoutReport(
            options: options, delivered: delivered, complete: complete,
            eventsPerSecond: span > 0 ? Double(delivered) / span : 0, lagSeconds: max(0, lag), latency: latency,
            serverMicrosecondsPerEvent: nil, unexpected: unexpected, subscribeSeconds: 0)
    }

    /// A process's user and system CPU time so far, from `/proc/PID/stat`; nil when it cannot be read.
    static func cpuSeconds(_ pid: Int32) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After the command: state is field 0, utime field 11, stime field 12.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
