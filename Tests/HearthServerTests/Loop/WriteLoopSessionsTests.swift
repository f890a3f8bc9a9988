import Foundation
import HearthCore
import HearthStorage
import HearthSystem
import HearthTestKit
import HearthWire
import Testing

@testable import HearthDatabase
@testable import HearthNode
@testable import HearthServer

/// On a single node the read view takes the write loop's shard sessions instead of recording every named write
/// (`CommitFeed+Sessions.swift`): what a snapshot of the view carries is what replaying the whole log records.
@Suite struct WriteLoopSessionsTests {
    /// More named writes per shard than the feed keeps waiting (so it asks the loop and takes its offers): from
    /// clients that write only before the offer and never settle, and clients that write only after it and settle
    /// as they go. The view's sessions equal those a restart rebuilds from the log, and a write sent again after the
    /// offers is still answered without being applied twice.
    @Test func theViewsSessionsAreTheOnesTheLogRebuilds() async throws {
        var configuration = NodeConfiguration()
        configuration.dataDirectory = try TemporaryDirectory().path
        configuration.fsync = .off
        defer { try? FileManager.default.removeItem(atPath: configuration.dataDirectory) }
        let database = try await Database.open(configuration: configuration, log: Log(level: .critical))
        let keys = try #require(
            Fixture.keys("p", under: Fixture.path("posts"), router: database.coordinator.router, shards: [0, 1]))
        let perShard = CommitFeed.recordingLimit + CommitFeed.recordingLimit / 4
        var sequences: [String: UInt64] = [:]
        /// Per client, its last write's sequence number and key.
        var last: [String: (sequence: UInt64, key: String)] = [:]
        for start in stride(from: 0, to: 2 * perShard, by: 200) {
            var writes: [LoopWrite] = []
            for number in start..<min(start + 200, 2 * perShard) {
                let isEarly = number < CommitFeed.recordingLimit
                let client = isEarly ? "early-\(number % 37)" : "late-\(number % 37)"
                let sequence = sequences[client, default: 1]
                sequences[client] = sequence + 1
                last[client] = (sequence, keys[number % 2])
                let origin = try WriteOrigin(
                    client: client, sequence: sequence, settledBelow: isEarly || sequence <= 3 ? 0 : sequence - 3)
                writes.append(
                    LoopWrite(
                        namespace: "default",
                        mutations: [try Fixture.set("posts/\(keys[number % 2])/n", #"{".sv":{"increment":1}}"#)],
                        conditions: [], now: Int64(1_000 + number), origin: origin))
            }
            let answers = await withCheckedContinuation { continuation in
                database.writes.submit(connection: 1, writes) { continuation.resume(returning: $0) }
            }
            #expect(answers.allSatisfy { if case .success(.committed) = $0 { true } else { false } })
        }
        let (sequence, key) = try #require(last["early-0"])
        let again = LoopWrite(
            namespace: "default", mutations: [try Fixture.set("posts/\(key)/n", #"{".sv":{"increment":1}}"#)],
            conditions: [], now: 99_999, origin: try WriteOrigin(client: "early-0", sequence: sequence, settledBelow: 0)
        )
        let resent = await withCheckedContinuation { continuation in
            database.writes.submit(connection: 1, [again]) { continuation.resume(returning: $0) }
        }
        #expect(resent.allSatisfy { if case .success(.committed) = $0 { true } else { false } })
        let shown = try #require(database.view.capture())
        #expect(shown.roots["default"]?.node(at: Fixture.path("posts/\(keys[0])/n")) == Node(.int(Int64(perShard))))
        await database.close()
        let reopened = try await Database.open(configuration: configuration, log: Log(level: .critical))
        let rebuilt = try #require(reopened.view.capture())
        // Compared as one Boolean: printed, the two lists of sessions run to tens of kilobytes.
        let isRebuiltAlike = rebuilt.sessions == shown.sessions
        #expect(isRebuiltAlike, "the view's sessions differ from those the log rebuilds")
        #expect(rebuilt.sessions.reduce(0) { $0 + $1.count } == 2 * 2 * 37, "every client wrote to both shards")
        await reopened.close()
    }
}
