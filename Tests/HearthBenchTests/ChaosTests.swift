import Testing

@testable import HearthBench

/// `--chaos kill-leader`'s pure parts: which leader it kills, and how soon throughput counts as back.
@Suite struct ChaosTests {
    /// Samples every 100 ms of a run doing `rate` operations a second, with nothing done from `stall` for `length`.
    private static func samples(rate: Double, stall: Double, length: Double, until end: Double) -> [ThroughputRecovery
        .Sample]
    {
        var samples: [ThroughputRecovery.Sample] = []
        var operations = 0.0
        for tenth in 0...Int(end * 10) {
            let seconds = Double(tenth) / 10
            if tenth > 0, !(stall..<(stall + length)).contains(seconds - 0.1) { operations += rate / 10 }
            samples.append(.init(seconds: seconds, operations: Int(operations)))
        }
        return samples
    }

    @Test func recoveryIsTheStallUntilHalfTheRateIsBack() throws {
        let samples = Self.samples(rate: 1000, stall: 5, length: 0.8, until: 10)
        let recovery = try #require(ThroughputRecovery.seconds(after: 5, samples: samples))
        #expect(recovery >= 0.5 && recovery <= 0.8, "\(recovery)")
    }

    @Test func aRunThatNeverRecoversSaysSo() {
        let samples = Self.samples(rate: 1000, stall: 5, length: 100, until: 10)
        #expect(ThroughputRecovery.seconds(after: 5, samples: samples) == nil)
        #expect(
            ThroughputRecovery.seconds(after: 1, samples: Self.samples(rate: 0, stall: 0, length: 0, until: 3)) == nil)
    }

    @Test func anUndisturbedRunRecoversAtOnce() {
        let samples = Self.samples(rate: 500, stall: 99, length: 0, until: 10)
        #expect(ThroughputRecovery.seconds(after: 4, samples: samples) == 0)
    }

    @Test func theHottestShardIsTheOneThatCommittedMost() {
        let before: [Int: (leader: String, commit: Int64)] = [0: ("n1", 10), 1: ("n2", 500), 2: ("n3", 20)]
        let after: [Int: (leader: String, commit: Int64)] = [0: ("n1", 900), 1: ("n2", 700), 2: ("n2", 25)]
        #expect(StarChaos.hottest(before: before, after: after)?.shard == 0)
        #expect(StarChaos.hottest(before: before, after: after)?.leader == "n1")
        #expect(StarChaos.hottest(before: [:], after: [:]) == nil)
    }

    @Test func theChaosOptionIsChecked() throws {
        let options = try StarsOptions(arguments: ["--chaos", "kill-leader", "--cluster-script", "/x/cluster"])
        #expect(options.killsLeader && options.clusterScript == "/x/cluster")
        #expect(throws: BenchOptionsError.self) { try StarsOptions(arguments: ["--chaos", "kill-everything"]) }
    }

    /// Running `scripts/cluster` (here stand-ins): success is nil; a failing script's exit and standard error are
    /// the failure; a script that cannot start says so.
    @Test func theClusterScriptsOutcomeIsReported() async throws {
        func chaos(_ script: String) -> StarChaos {
            StarChaos(script: script, nodes: [], down: .seconds(1), credential: nil)
        }
        #expect(await chaos("/bin/true").cluster(["kill", "n1"]) == nil)
        let failed = try #require(await chaos("/bin/sh").cluster(["-c", "echo no leader >&2; echo quiet; exit 3"]))
        #expect(failed.contains("exited with status 3") && failed.hasSuffix(": no leader"), "\(failed)")
        let missing = try #require(await chaos("/nonexistent/scripts/cluster").cluster(["kill", "n1"]))
        #expect(missing.contains("could not run /nonexistent/scripts/cluster"), "\(missing)")
    }
}
