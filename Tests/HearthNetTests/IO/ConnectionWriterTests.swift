import HearthSystem
import Testing

@testable import HearthNet

/// A writer's queue, driven without a reactor: several messages queued in one step keep their order and framing,
/// and a last message refuses every later write while a close still goes through.
@Suite struct ConnectionWriterTests {
    private static func queued(_ writer: ConnectionWriter) -> [UInt8] {
        writer.queue.withLock { queue in
            var bytes = [UInt8](repeating: 0, count: queue.queuedBytes)
            let copied = bytes.withUnsafeMutableBytes { queue.copyFront(into: $0) }
            return Array(bytes[..<copied])
        }
    }

    @Test func severalMessagesGoInOneStepInOrderAndEmptyOnesAreSkipped() throws {
        let inbox = try ReactorInbox()
        let writer = ConnectionWriter(id: 1, limit: 1 << 20, inbox: inbox)
        #expect(writer.write([1]))
        #expect(writer.write(contentsOf: [[2, 3], [], [4]]))
        #expect(writer.write(contentsOf: []))
        #expect(Self.queued(writer) == [1, 2, 3, 4])
        let flushes = inbox.takeCommands().filter {
            if case .flush = $0 { true } else { false }
        }
        #expect(flushes.count == 1, "one flush is asked for until the reactor runs it")
    }

    @Test func eachMessageIsFramedOnItsOwn() throws {
        let writer = ConnectionWriter(id: 2, limit: 1 << 20, inbox: try ReactorInbox())
        writer.setFraming(HTTPChunkedFraming())
        #expect(writer.write(contentsOf: [Array("ab".utf8), [], Array("c".utf8)]))
        #expect(Self.queued(writer) == Array("2\r\nab\r\n1\r\nc\r\n".utf8))
        writer.queue.withLock { queue in
            queue.consume(1)
            #expect(queue.dropUnstarted() == 6, "the begun message keeps all its parts; the next one goes whole")
        }
    }

    @Test func messagesThatTogetherOverflowCloseTheConnectionAndQueueNothing() throws {
        let writer = ConnectionWriter(id: 3, limit: 10, inbox: try ReactorInbox())
        #expect(writer.write([1, 2, 3]))
        #expect(!writer.write(contentsOf: [[UInt8](repeating: 4, count: 4), [UInt8](repeating: 5, count: 4)]))
        #expect(writer.isClosed)
        #expect(writer.queue.withLock { $0.hasOverflowed && $0.queuedBytes == 0 })
    }

    @Test func theLastMessageRefusesLaterWritesButNotTheClose() throws {
        let writer = ConnectionWriter(id: 4, limit: 1 << 20, inbox: try ReactorInbox())
        writer.setFraming(HTTPChunkedFraming())
        #expect(writer.writeLast(Array("bye".utf8)))
        #expect(!writer.write(Array("late".utf8)))
        #expect(!writer.write(contentsOf: [Array("later".utf8)]))
        #expect(!writer.writeLast(Array("again".utf8)))
        writer.close()
        #expect(Self.queued(writer) == Array("3\r\nbye\r\n0\r\n\r\n".utf8), "the goodbye, then the close's trailer")
        #expect(writer.queue.withLock { $0.isCloseRequested })
    }
}
