import HearthSystem
import Testing

@testable import HearthNet

/// Flushes asked for inside a batch wait for its end: one command for the reactor naming each connection once,
/// however many writes the batch made, none before, with the other commands the batch handed over; outside a batch
/// each write asks at once.
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

    /// A batch is its own thread's: a write another thread makes while it collects asks for its flush at once, and
    /// once the batch has ended none collects.
    @Test func aBatchCollectsOnlyItsOwnThreadsWrites() throws {
        let inbox = try ReactorInbox()
        let (mine, theirs) = (
            ConnectionWriter(id: 1, limit: 1 << 20, inbox: inbox), ConnectionWriter(id: 2, limit: 1 << 20, inbox: inbox)
        )
        try FlushBatch.collecting {
            mine.write([1])
            try DedicatedThread.start(name: "other-writer") { theirs.write([1]) }.join()
            #expect(Self.flushes(inbox) == [[2]], "the other thread's write asked at once")
        }
        #expect(Self.flushes(inbox) == [[1]], "this thread's write waited for the batch's end")
        #expect(FlushBatch.current == nil)
    }

    /// A message for a connection's handler, told apart by its number.
    private struct Numbered: ConnectionMessage {
        let number: Int
        func discard() {}
    }

    /// Commands handed over inside a batch (a turn's REST replies) reach their reactor when it ends, before its
    /// flush, in the order they came.
    @Test func commandsHandedOverInABatchGoWithItsFlushesWhenItEnds() throws {
        let inbox = try ReactorInbox()
        let writer = ConnectionWriter(id: 7, limit: 1 << 20, inbox: inbox)
        FlushBatch.collecting {
            FlushBatch.send(.message(connectionID: 7, Numbered(number: 1)), to: inbox)
            writer.write([1])
            FlushBatch.send(.message(connectionID: 7, Numbered(number: 2)), to: inbox)
            #expect(inbox.takeCommands().isEmpty, "nothing reaches the reactor while the batch runs")
        }
        let commands = inbox.takeCommands().map { command -> String in
            switch command {
            case .message(_, let message as Numbered): "message \(message.number)"
            case .flush(let id): "flush \(id)"
            default: "other"
            }
        }
        #expect(commands == ["message 1", "message 2", "flush 7"])
    }

    /// With two reactors, each gets what the batch gathered for it alone: one that was handed commands gets them in
    /// the order they came and then one flush naming its connections in the order they asked; one that only has
    /// connections to flush gets that one flush.
    @Test func eachReactorGetsItsOwnCommandsAndOneFlush() throws {
        let (first, second) = (try ReactorInbox(), try ReactorInbox())
        let firsts = (1...3).map { ConnectionWriter(id: UInt64($0), limit: 1 << 20, inbox: first) }
        let seconds = (4...5).map { ConnectionWriter(id: UInt64($0), limit: 1 << 20, inbox: second) }
        FlushBatch.collecting {
            seconds[1].write([1])
            firsts[2].write([1])
            FlushBatch.send(.message(connectionID: 3, Numbered(number: 1)), to: first)
            seconds[0].write([1])
            firsts[0].write([1])
            FlushBatch.send(.message(connectionID: 1, Numbered(number: 2)), to: first)
            firsts[2].write([2])
            firsts[1].write([1])
        }
        let described = { (inbox: ReactorInbox) in
            inbox.takeCommands().map { command -> String in
                switch command {
                case .message(_, let message as Numbered): "message \(message.number)"
                case .flush(let id): "flush \(id)"
                case .flushMany(let ids): "flush \(ids)"
                default: "other"
                }
            }
        }
        #expect(described(first) == ["message 1", "message 2", "flush [3, 1, 2]"])
        #expect(described(second) == ["flush [5, 4]"])
    }

    /// Outside a batch, a command is handed over at once.
    @Test func outsideABatchACommandGoesAtOnce() throws {
        let inbox = try ReactorInbox()
        FlushBatch.send(.message(connectionID: 3, Numbered(number: 1)), to: inbox)
        #expect(inbox.takeCommands().count == 1)
    }

    @Test func outsideABatchAWriteAsksAtOnce() throws {
        let inbox = try ReactorInbox()
        let writer = ConnectionWriter(id: 4, limit: 1 << 20, inbox: inbox)
        writer.write([1])
        #expect(Self.flushes(inbox) == [[4]])
    }
}
