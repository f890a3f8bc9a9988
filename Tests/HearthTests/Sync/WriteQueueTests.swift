import HearthCore
import Testing

@testable import Hearth

@Suite struct WriteQueueTests {
    private func write(_ id: Int64, _ path: String, _ change: PendingChange, visible: Bool = true) throws
        -> PendingWrite
    {
        PendingWrite(id: WriteID(id), path: try SyncFixtures.path(path), change: change, isVisible: visible)
    }

    /// A set above a location makes it known wholly; a set below fills in one child.
    @Test func overwritesLayerInOrder() throws {
        var queue = WriteQueue()
        queue.append(try self.write(1, "a", .overwrite(try SyncFixtures.node(#"{"x": 1, "y": 2}"#))))
        queue.append(try self.write(2, "a/y", .overwrite(SyncFixtures.int(3))))
        let known = queue.apply(to: .unknown, at: try SyncFixtures.path("a"))
        #expect(known == .complete(try SyncFixtures.node(#"{"x": 1, "y": 3}"#)))
        let below = queue.apply(to: .unknown, at: try SyncFixtures.path("a/x"))
        #expect(below == .complete(SyncFixtures.int(1)))
    }

    @Test func mergesSetEachPath() throws {
        var queue = WriteQueue()
        let entries = [
            MergeEntry(relative: try SyncFixtures.path("x"), node: SyncFixtures.int(1)),
            MergeEntry(relative: try SyncFixtures.path("y/z"), node: SyncFixtures.int(2)),
        ]
        queue.append(try self.write(1, "a", .merge(entries)))
        let known = queue.apply(to: .unknown, at: try SyncFixtures.path("a"))
        #expect(known.completeChildren == (try SyncFixtures.node(#"{"x": 1}"#)))
        #expect(known.isComplete(at: try SyncFixtures.path("y/z")))
    }

    /// Hidden writes count only when asked for, and excluded ones never.
    @Test func hiddenAndExcludedWrites() throws {
        var queue = WriteQueue()
        queue.append(try self.write(1, "a", .overwrite(SyncFixtures.int(1)), visible: false))
        queue.append(try self.write(2, "b", .overwrite(SyncFixtures.int(2))))
        #expect(queue.apply(to: .unknown, at: .root).completeChildren == (try SyncFixtures.node(#"{"b": 2}"#)))
        let all = queue.apply(to: .unknown, at: .root, includeHidden: true, excluding: [WriteID(2)])
        #expect(all.completeChildren == (try SyncFixtures.node(#"{"a": 1}"#)))
    }

    @Test func removingTakesAWriteOut() throws {
        var queue = WriteQueue()
        queue.append(try self.write(1, "a", .overwrite(SyncFixtures.int(1))))
        #expect(queue.remove(WriteID(1))?.id == WriteID(1))
        #expect(queue.remove(WriteID(1)) == nil)
        #expect(queue.writes.isEmpty)
    }
}
