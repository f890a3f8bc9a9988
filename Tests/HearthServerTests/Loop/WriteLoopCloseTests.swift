import Foundation
import HearthCore
import HearthStorage
import HearthSystem
import HearthTestKit
import Testing

@testable import HearthDatabase
@testable import HearthNode

/// Closing a single node ends its write loop's thread, and every write gets a definite answer: the loop's own
/// outcome for one it took before the close (acknowledged only once durable), a refusal for one handed over after
/// it, never a hang.
@Suite struct WriteLoopCloseTests {
    /// A configuration over a fresh data directory.
    private static func configuration() throws -> NodeConfiguration {
        var configuration = NodeConfiguration()
        configuration.dataDirectory = try TemporaryDirectory().path
        configuration.fsync = .off
        return configuration
    }

    private static func open(_ configuration: NodeConfiguration) async throws -> Database {
        try await Database.open(configuration: configuration, log: Log(level: .critical))
    }

    private static func write(_ path: String, _ json: String) throws -> LoopWrite {
        LoopWrite(namespace: "default", mutations: [try Fixture.set(path, json)], conditions: [], now: 1, origin: nil)
    }

    /// Hands `writes` to the loop as one batch of `connection` and waits for the answers.
    private static func submit(_ database: Database, connection: UInt64, _ writes: [LoopWrite]) async
        -> [WriteBatch.Answer]
    {
        await withCheckedContinuation { continuation in
            database.writes.submit(connection: connection, writes) { continuation.resume(returning: $0) }
        }
    }

    /// The loop thread's entry in /proc (`/proc/<pid>/task/<tid>`), read on the loop thread.
    private static func loopThread(_ database: Database) async throws -> String {
        let link = try #require(await database.writes.shards[0].currentThread())
        return "/proc/" + link
    }

    /// The name of the thread at `task`, nil once it has ended.
    private static func threadName(_ task: String) -> String? {
        (try? String(contentsOfFile: task + "/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// How many threads of this process are called `hearth-loop` now.
    private static func loopThreadCount() -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.filter { Self.threadName("/proc/self/task/" + $0) == "hearth-loop" }.count
    }

    /// Writers keep handing batches to the loop while it closes: every write is answered (committed, or refused or
    /// failed with a node-stopping error), every acknowledged write is there after a restart and none refused at
    /// the hand-over is, and the loop's thread has ended.
    @Test(.timeLimit(.minutes(2))) func closingUnderConcurrentWritesAnswersEveryWriteAndEndsTheThread() async throws {
        let configuration = try Self.configuration()
        defer { try? FileManager.default.removeItem(atPath: configuration.dataDirectory) }
        let database = try await Self.open(configuration)
        let thread = try await Self.loopThread(database)
        #expect(Self.threadName(thread) == "hearth-loop")
        #expect(Self.loopThreadCount() >= 1)
        let committed = Lock<[String]>([])
        let refused = Lock<[String]>([])
        let failed = Lock<[String]>([])
        let unexpected = Lock<[String]>([])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    var isRefused = false
                    for round in 0..<10_000 where !isRefused {
                        let paths = (0..<4).map { "c\(writer)/r\(round)/w\($0)" }
                        let answers = await Self.submit(
                            database, connection: UInt64(writer + 1), try paths.map { try Self.write($0, "1") })
                        for (path, answer) in zip(paths, answers) {
                            switch answer {
                            case .success(.committed): committed.withLock { $0.append(path) }
                            case .failure(is NodeStoppingError):
                                isRefused = true
                                refused.withLock { $0.append(path) }
                            case .failure(is DatabaseClosedError), .failure(is StorageError):
                                failed.withLock { $0.append(path) }
                            default: unexpected.withLock { $0.append("\(path): \(answer)") }
                            }
                        }
                    }
                }
            }
            #expect(await eventually { committed.withLock { $0.count } >= 400 })
            await database.close()
            try await group.waitForAll()
        }
        #expect(unexpected.withLock { $0 }.isEmpty, "\(unexpected.withLock { $0.prefix(5) })")
        #expect(refused.withLock { $0.count } >= 8 * 4, "every writer's batch after the close was refused")
        #expect(await eventually(seconds: 10) { Self.threadName(thread) != "hearth-loop" }, "the loop's thread ended")
        let reopened = try await Self.open(configuration)
        let root = reopened.view.root("default")
        for path in committed.withLock({ $0 }) {
            #expect(root.node(at: Fixture.path(path)) == Node(.int(1)), "acknowledged \(path) is durable")
        }
        for path in refused.withLock({ $0 }) {
            #expect(root.node(at: Fixture.path(path)).isEmpty, "refused \(path) was not applied")
        }
        await reopened.close()
    }

    /// Closing twice returns at once the second time; every later write, whether handed to the loop (in a batch of
    /// several or of one) or sent the async way (which runs shard commands on the stopped loop), is answered with an error and applies nothing,
    /// and the loop has no thread left afterwards.
    @Test(.timeLimit(.minutes(1))) func writesAfterCloseAreRefusedAndClosingTwiceIsHarmless() async throws {
        let configuration = try Self.configuration()
        defer { try? FileManager.default.removeItem(atPath: configuration.dataDirectory) }
        let database = try await Self.open(configuration)
        let thread = try await Self.loopThread(database)
        #expect(Self.isCommitted(await Self.submit(database, connection: 1, [try Self.write("before", "1")])))
        await database.close()
        await database.close()
        #expect(await eventually(seconds: 10) { Self.threadName(thread) != "hearth-loop" })
        let answers = await Self.submit(
            database, connection: 1, [try Self.write("after", "1"), try Self.write("b", "2")])
        #expect(answers.count == 2)
        for answer in answers {
            guard case .failure(let error) = answer else {
                Issue.record("a write after close was answered \(answer)")
                continue
            }
            #expect(error is NodeStoppingError)
        }
        let single = try Self.write("single", "1")
        let (tag, answer) = await withCheckedContinuation { continuation in
            database.writes.submitAcknowledged(connection: 1, single, tag: 3) {
                continuation.resume(returning: ($0, $1))
            }
        }
        #expect(tag == 3)
        if case .failure(let error) = answer {
            #expect(error is NodeStoppingError)
        } else {
            Issue.record("a one-write batch after close was answered \(answer)")
        }
        await #expect(throws: (any Error).self) {
            _ = try await database.coordinator.write(
                namespace: "default", mutations: [try Fixture.set("async", "1")], conditions: [], now: 1)
        }
        let late = try #require(await database.writes.shards[0].currentThread())
        #expect(await eventually(seconds: 10) { Self.threadName("/proc/" + late) != "hearth-loop" })
        let reopened = try await Self.open(configuration)
        let root = reopened.view.root("default")
        #expect(root.node(at: Fixture.path("before")) == Node(.int(1)))
        for path in ["after", "b", "single", "async"] {
            #expect(root.node(at: Fixture.path(path)).isEmpty, "\(path), refused or never durable, is not there")
        }
        await reopened.close()
    }

    private static func isCommitted(_ answers: [WriteBatch.Answer]) -> Bool {
        answers.allSatisfy {
            if case .success(.committed) = $0 { return true }
            return false
        }
    }
}

extension ShardActor {
    /// Where the thread running this shard's commands is in /proc (`<pid>/task/<tid>`).
    fileprivate func currentThread() -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")
    }
}
