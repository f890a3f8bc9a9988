import Synchronization
import Testing

@testable import HearthSystem

@Suite struct MetricsRegistryTests {
    /// Counters render one line per label combination, in label order, under one header.
    @Test func rendersCounterFamiliesSortedByLabels() {
        let registry = MetricsRegistry()
        let requests = registry.counter(
            "app_requests_total", help: "Requests by method and status.", labels: ["method", "status"])
        requests.increment(["PUT", "200"])
        requests.increment(["GET", "404"])
        requests.increment(["GET", "200"], by: 2)
        #expect(requests.value(["GET", "200"]) == 2)
        #expect(requests.value(["POST", "200"]) == 0)
        #expect(
            registry.render() == """
                # HELP app_requests_total Requests by method and status.
                # TYPE app_requests_total counter
                app_requests_total{method="GET",status="200"} 2
                app_requests_total{method="GET",status="404"} 1
                app_requests_total{method="PUT",status="200"} 1

                """)
    }

    /// Buckets are cumulative, `+Inf` equals the count, and the sum is the total observed.
    @Test func rendersHistogramsWithCumulativeBuckets() {
        let registry = MetricsRegistry()
        let latency = registry.histogram("app_seconds", help: "Latency.", labels: ["op"], buckets: [0.5, 1, 2.5])
        for value in [0.25, 0.75, 1, 3, 0.5] { latency.observe(value, ["get"]) }
        latency.observe(.nan, ["get"])
        #expect(latency.count(["get"]) == 5)
        #expect(
            registry.render() == """
                # HELP app_seconds Latency.
                # TYPE app_seconds histogram
                app_seconds_bucket{op="get",le="0.5"} 2
                app_seconds_bucket{op="get",le="1"} 4
                app_seconds_bucket{op="get",le="2.5"} 4
                app_seconds_bucket{op="get",le="+Inf"} 5
                app_seconds_sum{op="get"} 5.5
                app_seconds_count{op="get"} 5

                """)
    }

    @Test func gaugesGoUpAndDown() {
        let registry = MetricsRegistry()
        let gauge = registry.gauge("app_queue_depth", help: "Queued items.")
        gauge.add(3)
        gauge.add(-1)
        #expect(gauge.value() == 2)
        gauge.set(0.25)
        #expect(registry.render().hasSuffix("# TYPE app_queue_depth gauge\napp_queue_depth 0.25\n"))
    }

    /// Sampled values are read at every render, after the registered families, in registration order.
    @Test func readsSampledValuesAtRenderTime() {
        let registry = MetricsRegistry()
        let fsyncs = Atomic<Int>(0)
        registry.sampledCounter("app_fsyncs_total", help: "fsyncs.") { Double(fsyncs.load(ordering: .relaxed)) }
        registry.sampledGauge("app_open", help: "Open things.") { 1e20 }
        fsyncs.store(7, ordering: .relaxed)
        #expect(
            registry.render() == """
                # HELP app_fsyncs_total fsyncs.
                # TYPE app_fsyncs_total counter
                app_fsyncs_total 7
                # HELP app_open Open things.
                # TYPE app_open gauge
                app_open 1e+20

                """)
        fsyncs.store(8, ordering: .relaxed)
        #expect(registry.render().contains("app_fsyncs_total 8\n"))
    }

    /// Labelled sampled series come out sorted by their label values, whatever order the subsystem gives them in.
    @Test func readsLabelledSampledSeriesInLabelOrder() {
        let registry = MetricsRegistry()
        registry.sampledGauges("app_commit_index", help: "Commit index.", labels: ["shard"]) {
            [(["1"], 5), (["0"], 9)]
        }
        #expect(
            registry.render() == """
                # HELP app_commit_index Commit index.
                # TYPE app_commit_index gauge
                app_commit_index{shard="0"} 9
                app_commit_index{shard="1"} 5

                """)
    }

    /// Label values come from clients (methods, wire actions), so they cannot break the exposition; help text is
    /// escaped too.
    @Test func escapesLabelValuesAndHelp() {
        let registry = MetricsRegistry()
        let counter = registry.counter("app_total", help: "Back\\slash\nnewline.", labels: ["action"])
        counter.increment(["a\"b\\c\nd"])
        #expect(
            registry.render() == """
                # HELP app_total Back\\\\slash\\nnewline.
                # TYPE app_total counter
                app_total{action="a\\"b\\\\c\\nd"} 1

                """)
    }

    @Test func spellsNumbersAsPrometheusDoes() {
        #expect(PrometheusText.number(3) == "3")
        #expect(PrometheusText.number(-2) == "-2")
        #expect(PrometheusText.number(0.0005) == "0.0005")
        #expect(PrometheusText.number(.infinity) == "+Inf")
        #expect(PrometheusText.number(-.infinity) == "-Inf")
        #expect(PrometheusText.number(.nan) == "NaN")
    }

    /// Many threads recording at once lose no increments.
    @Test func countsEveryIncrementFromConcurrentThreads() async {
        let registry = MetricsRegistry()
        let counter = registry.counter("app_hits_total", help: "Hits.", labels: ["worker"])
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for _ in 0..<1_000 { counter.increment([String(worker % 2)]) }
                }
            }
        }
        #expect(counter.value(["0"]) == 4_000 && counter.value(["1"]) == 4_000)
    }

    /// A series resolved once and recorded through its handle counts with the same series recorded by labels, from
    /// many threads at once; series resolved but never recorded into are not rendered.
    @Test func resolvedSeriesShareTheirLabelsSeriesAndHideUntilUsed() async {
        let registry = MetricsRegistry()
        let counter = registry.counter("app_hits_total", help: "Hits.", labels: ["op"])
        let latency = registry.histogram("app_seconds", help: "Latency.", labels: ["op"], buckets: [1])
        let (hits, seconds) = (counter.series(["get"]), latency.series(["get"]))
        _ = (counter.series(["put"]), latency.series(["put"]))
        #expect(registry.render().split(separator: "\n").allSatisfy { $0.hasPrefix("#") })
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for _ in 0..<1_000 {
                        if worker % 2 == 0 { hits.increment() } else { counter.increment(["get"]) }
                        seconds.observe(0.5)
                    }
                }
            }
        }
        #expect(counter.value(["get"]) == 8_000 && counter.value(["put"]) == 0)
        #expect(latency.count(["get"]) == 8_000 && latency.count(["put"]) == 0)
        let rendered = registry.render()
        #expect(rendered.contains("app_hits_total{op=\"get\"} 8000\n") && !rendered.contains("op=\"put\""))
        #expect(rendered.contains("app_seconds_sum{op=\"get\"} 4000\n"))
    }
}
