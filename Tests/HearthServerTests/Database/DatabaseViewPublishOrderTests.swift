import Dispatch
import Glibc
import HearthCore
import Synchronization
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// A cluster node's shards hand their committed entries to the read view from several threads at once; listeners
/// still hear every change once, in the order the view applied them, so a listener above several shards never ends
/// on an older root than the view's.
@Suite struct DatabaseViewPublishOrderTests {
    /// Records the sequence of every change it hears, dawdling now and then so that other threads overtake it.
    final class Recorder: ChangeListener {
        let namespace = "default"
        let path = Path.root
        let heard = Mutex<[(sequence: UInt64, root: Node)]>([])

        func changed(_ change: CommittedChange) {
            if change.sequence % 7 == 0 { usleep(200) }
            self.heard.withLock { $0.append((change.sequence, change.newRoot)) }
        }
    }

    @Test func listenersHearChangesInTheOrderTheyWereApplied() throws {
        let shards = 4
        let entries = 400
        let view = DatabaseView(shardCount: shards)
        let recorder = Recorder()
        _ = view.addListener(recorder)
        DispatchQueue.concurrentPerform(iterations: shards) { shard in
            for index in 1...entries {
                let change = ShardChange(
                    namespace: "default",
                    mutations: [.set(Fixture.path("s\(shard)/n"), Node(.int(Int64(index))))], increments: [:])
                let applied = ShardApplied(shard: shard, index: UInt64(index), effect: .write(change))
                view.receive([applied], shard: shard, position: UInt64(index))
            }
        }
        let heard = recorder.heard.withLock { $0 }
        #expect(heard.count == shards * entries)
        #expect(zip(heard, heard.dropFirst()).allSatisfy { $0.sequence < $1.sequence })
        #expect(heard.last?.root == view.root("default"))
        #expect(view.shownIndexes == Array(repeating: UInt64(entries), count: shards))
    }
}
