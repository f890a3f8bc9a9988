import HearthSystem
import Testing

@testable import HearthNet

/// Flushes asked for inside a batch wait for its end: one command for the reactor naming each connection once,
/// however many writes the batch made, none before; outside a batch each write asks at once.
@Suite struct FlushBatchTests {
    private static func flushes(_ inbox: ReactorInbox) -> [[UInt64]] {
        inbox.takeCommands().compactMap {
            switch $0 {
            case .flush(let id): [id]
            case .flushMany(let ids): ids
            default: nil
            }
        }
    }

    @Test func aBatchAsksOnceForEachConnectionWhenItEnds() throws {
        let inbox = try ReactorInbox()
        let writers = (1...3).map { ConnectionWriter(id: UInt64($0), limit: 1 << 20, inbox: inbox) }
        FlushBatch.collecting {
            for round in 0..<5 {
                for writer in writers { writer.write([UInt8(round)]) }
            }
            #expect(Self.flushes(inbox).isEmpty, "nothing is flushed while the batch runs")
            _ = FlushBatch.collecting { writers[0].write([9]) }
            #expect(Self.flushes(inbox).isEmpty, "a nested batch joins the outer one")
        }
        #expect(Self.flushes(inbox) == [[1, 2, 3]])
        #expect(writers[0].queue.withLock { $0.queuedBytes } == 6, "every write was queued")
    }

    @Test func outsideABatchAWriteAsksAtOnce() throws {
        let inbox = try ReactorInbox()
        let writer = ConnectionWriter(id: 4, limit: 1 << 20, inbox: inbox)
        writer.write([1])
        #expect(Self.flushes(inbox) == [[4]])
    }
}
