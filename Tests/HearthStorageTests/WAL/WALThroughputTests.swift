import Glibc
import HearthStorage
import HearthTestKit
import Testing

/// Throughput numbers for docs/benchmarks.md; slow, so only with `HEARTH_SLOW_TESTS=1`, and meaningful only in a
/// release build: `HEARTH_SLOW_TESTS=1 swift test -c release --filter WALThroughputTests`.
@Suite(.enabled(if: slowTestsEnabled)) struct WALThroughputTests {
    /// Records/s and fsyncs/s for 1 and 64 concurrent writers (each appends and waits in a loop) per fsync mode.
    @Test func measuresRecordsAndFsyncsPerSecond() async throws {
        let seconds = 2.0
        var lines: [String] = []
        for mode in FsyncMode.allCases {
            for writers in [1, 64] {
                let directory = try TemporaryDirectory("hearth-wal-bench")
                defer { directory.remove() }
                var configuration = WALConfiguration()
                configuration.fsync = mode
                let log = try WriteAheadLog(
                    directory: directory.path,
                    configuration: configuration,
                    onDurable: { _ in }
                )
                log.start()
                let payload = [UInt8](repeating: 0x5A, count: 100)
                let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1_000))
                let start = ContinuousClock.now
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<writers {
                        group.addTask {
                            while ContinuousClock.now < deadline {
                                try await log.waitUntilDurable(log.enqueue(payload))
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                let elapsed = Self.seconds(ContinuousClock.now - start)
                let statistics = log.statistics
                await log.close()
                let records = Double(statistics.records) / elapsed
                let fsyncs = Double(statistics.fsyncs) / elapsed
                let perBatch = Double(statistics.records) / Double(max(1, statistics.batches))
                lines.append(
                    "fsync=\(mode.rawValue) writers=\(writers): \(Int(records)) records/s, \(Int(fsyncs)) fsyncs/s, "
                        + "\(Int(perBatch)) records/batch"
                )
                #expect(statistics.records > 0)
            }
        }
        print(lines.joined(separator: "\n"))
    }

    @Test func measuresCRC32CThroughput() {
        let bytes = [UInt8](repeating: 0xA5, count: 64 << 20)
        let start = ContinuousClock.now
        var checksum: UInt32 = 0
        for _ in 0..<8 {
            checksum &+= CRC32C.checksum(bytes)
        }
        let elapsed = Self.seconds(ContinuousClock.now - start)
        let gigabytes = Double(8 * bytes.count) / elapsed / 1e9
        print("CRC-32C slice-by-8: \(gigabytes) GB/s (checksum \(checksum))")
        #expect(gigabytes > 0)
    }

    private static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}

/// Whether the slow, measuring tests run (`HEARTH_SLOW_TESTS=1`).
let slowTestsEnabled: Bool = {
    guard let value = getenv("HEARTH_SLOW_TESTS") else { return false }
    return String(cString: value) == "1"
}()
