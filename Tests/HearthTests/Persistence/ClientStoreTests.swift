import HearthCore
import HearthStorage
import HearthTestKit
import Synchronization
import Testing

@testable import Hearth

/// The persistent client's files: framing, the write log and the cache, and what damage does to each.
@Suite struct ClientStoreTests {
    final class Warnings: Sendable {
        private let lines = Mutex<[String]>([])
        var all: [String] { self.lines.withLock { $0 } }
        func append(_ line: String) { self.lines.withLock { $0.append(line) } }
    }

    private static let path = Path(keys: [Key(unchecked: "drafts")])

    @Test func framingKeepsTheIntactRecordsBeforeDamage() {
        let records = [[UInt8]("one".utf8), [], [UInt8]("three".utf8)]
        let bytes = records.flatMap(PersistenceFraming.frame)
        #expect(PersistenceFraming.payloads(bytes) == (records, false))
        let torn = PersistenceFraming.payloads(Array(bytes.dropLast(2)))
        #expect(torn.payloads == Array(records.prefix(2)) && torn.isDamaged)
        var flipped = bytes
        flipped[WALFrame.headerSize] ^= 0xFF
        #expect(PersistenceFraming.payloads(flipped) == ([], true))
    }

    @Test func theWriteLogKeepsUnfinishedWritesInOrder() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let warnings = Warnings()
        let store = ClientStore(directory: directory.child("db"), warn: warnings.append)
        #expect(store.loadWrites().isEmpty)
        let first = PersistedWrite(kind: .set, path: Self.path, data: .object(["a": .int(1)]))
        let second = PersistedWrite(kind: .update, path: .root, data: .object(["x/y": .string("z")]))
        let third = PersistedWrite(kind: .priority, path: Self.path, data: .null)
        store.appendAdded(1, first)
        store.appendAdded(2, second)
        store.appendAdded(3, third)
        store.appendFinished(2)
        let reopened = ClientStore(directory: directory.child("db"), warn: warnings.append)
        #expect(reopened.loadWrites().map(\.id) == [1, 3])
        #expect(reopened.loadWrites().map(\.write) == [first, third])
        reopened.rewriteWrites([(7, third)])
        #expect(reopened.loadWrites().map(\.id) == [7])
        #expect(warnings.all.isEmpty)
    }

    @Test func aDamagedCacheIsDiscardedWithAWarningAndATornLogKeepsItsPrefix() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let warnings = Warnings()
        let store = ClientStore(directory: directory.path, warn: warnings.append)
        let node = try WriteValue.make(["a": 1, "b": ["c": "d"]], priority: 3, at: Self.path).node
        store.saveCache([(Self.path, node)])
        let loaded = store.loadCache()
        #expect(loaded.count == 1 && loaded.first?.path == Self.path && loaded.first?.node == node)

        try directory.replace("cache.bin", with: [UInt8]("not a cache".utf8))
        #expect(store.loadCache().isEmpty)
        #expect(warnings.all.last?.contains("discarded") == true)

        store.appendAdded(1, PersistedWrite(kind: .set, path: Self.path, data: .int(1)))
        store.appendAdded(2, PersistedWrite(kind: .set, path: Self.path, data: .int(2)))
        let bytes = try directory.contents("writes.log")
        try directory.replace("writes.log", with: Array(bytes.dropLast(3)))
        #expect(store.loadWrites().map(\.id) == [1])
        #expect(warnings.all.last?.contains("before the damage are kept") == true)
    }
}
