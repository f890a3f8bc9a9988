import Foundation
import HearthStorage
import HearthTestKit
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// The write loop reaches its shards at each turn's end without keeping them: the shards keep the loop (their
/// executor) and the loop keeps its turn's end for its life, so a strong hold there would keep every shard forever.
@Suite struct WriteLoopShardsTests {
    /// Shards whose turns ended on the loop are freed once their owner lets them go, while the loop still runs.
    @Test func theLoopsTurnEndDoesNotKeepItsShards() async throws {
        let directory = try TemporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var configuration = WALConfiguration()
        configuration.fsync = .off
        let log = try LocalShardLog.open(
            directory: directory, configuration: configuration, fileSystem: PosixFileSystem()
        ) { _, _ in }
        log.start()
        let loop = try WriteLoop()
        defer { loop.stop() }
        weak var first: ShardActor?
        weak var last: ShardActor?
        do {
            let machines = (0..<3).map { ShardStateMachine(shard: $0, spineDepth: 1) }
            let shards = ShardActor.actors(for: machines, log: log, loop: loop)
            (first, last) = (shards.first, shards.last)
            for shard in shards {
                #expect(await shard.intents.isEmpty, "a job on the loop, whose turn ends with every shard alive")
            }
        }
        #expect(await eventually { first == nil && last == nil }, "the shards are freed once let go")
    }
}
