import Foundation
import HearthCore
import HearthStorage
import HearthSystem
import HearthTestKit
import HearthWire
import Testing

@testable import HearthDatabase
@testable import HearthNode

/// A log that hands a shard an entry whose index does not follow the shard's last one is damaged: the shard's
/// machine refuses the entry with a typed error and changes nothing, and a single node's recovery stops naming the
/// record, rather than either crashing the node.
@Suite struct ShardEntryGapTests {
    private static func entry(_ value: Int64) -> ShardEntry {
        .write(
            ShardWrite(
                namespace: "default", mutations: [.set(Fixture.path("p/n"), WriteValue(node: Node(.int(value))))],
                now: 1))
    }

    /// An entry past a missing one, and one repeating an applied index, are refused with `ShardEntryGapError`
    /// naming the shard and both indexes; the machine is as it was, and the next entry in order still applies.
    @Test func anEntryOutOfPlaceIsRefusedAndChangesNothing() throws {
        var machine = ShardStateMachine(shard: 3, spineDepth: 2)
        _ = try machine.apply(Self.entry(1), at: 1)
        let before = machine
        let skipped = try #require(throws: ShardEntryGapError.self) { try machine.apply(Self.entry(2), at: 3) }
        #expect(skipped == ShardEntryGapError(shard: 3, index: 3, lastIndex: 1))
        #expect(skipped.description.contains("entries are missing"), "\(skipped)")
        let repeated = try #require(throws: ShardEntryGapError.self) { try machine.apply(Self.entry(2), at: 1) }
        #expect(repeated.description.contains("repeated or out of order"), "\(repeated)")
        #expect(throws: ShardEntryGapError.self) { try machine.apply(Self.entry(2), at: UInt64.max) }
        #expect(machine.lastIndex == before.lastIndex && machine.trees == before.trees)
        _ = try machine.apply(Self.entry(2), at: 2)
        #expect(machine.node(namespace: "default", at: Fixture.path("p/n")) == Node(.int(2)))
    }

    /// A single node whose log skips an entry of a shard does not start: opening it fails with a
    /// `CommitRecordError` naming the record and the gap.
    @Test func aSingleNodesLogWithAGapStopsRecoveryNamingTheRecord() async throws {
        var configuration = NodeConfiguration()
        configuration.dataDirectory = try TemporaryDirectory().path
        configuration.fsync = .off
        defer { try? FileManager.default.removeItem(atPath: configuration.dataDirectory) }
        var walConfiguration = WALConfiguration()
        walConfiguration.fsync = .off
        let wal = try WriteAheadLog(directory: configuration.dataDirectory + "/wal", configuration: walConfiguration) {
            _ in
        }
        wal.start()
        _ = wal.enqueue(ShardLogRecord.encode(Self.entry(1), shard: 0, index: 1))
        _ = wal.enqueue(ShardLogRecord.encode(Self.entry(2), shard: 0, index: 3))
        await wal.close()
        let error = await #expect(throws: CommitRecordError.self) {
            _ = try await Database.open(configuration: configuration, log: Log(level: .critical))
        }
        #expect(error?.detail.contains("record 2") == true, "\(String(describing: error))")
        #expect(error?.detail.contains("entries are missing") == true, "\(String(describing: error))")
    }
}
