import Testing

@testable import HearthNet

@Suite struct OutboundQueueTests {
    /// Several small chunks are gathered from where the last partial send stopped, across chunk boundaries, and
    /// consuming what was sent leaves the rest in order.
    @Test func gathersSmallChunksAcrossBoundaries() {
        var queue = OutboundQueue()
        for text in ["event: a\n", "data: 1\n\n", "event: b\n", "data: 2\n\n"] { queue.append(Array(text.utf8)) }
        queue.consume(3)
        #expect(queue.isFrontFragmented)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 20, alignment: 1)
        defer { buffer.deallocate() }
        let copied = queue.copyFront(into: buffer)
        #expect(copied == 20)
        #expect(String(decoding: buffer[0..<copied], as: UTF8.self) == "nt: a\ndata: 1\n\nevent")
        queue.consume(copied)
        #expect(queue.queuedBytes == 13)
        #expect(queue.front.map { String(decoding: $0.chunk[$0.offset...], as: UTF8.self) } == ": b\n")
    }

    /// One chunk, or a large one at the front, is sent from where it lies: nothing to gather.
    @Test func sendsALoneOrLargeChunkAsItIs() {
        var queue = OutboundQueue()
        queue.append([UInt8](repeating: 1, count: 10))
        #expect(!queue.isFrontFragmented)
        var large = OutboundQueue()
        large.append([UInt8](repeating: 2, count: OutboundQueue.gatherBelow))
        large.append([3])
        #expect(!large.isFrontFragmented)
    }

    /// An eviction drops every message not yet begun and keeps the rest of the one being written, however its
    /// framing split it, so the peer never sees half a message.
    @Test func dropsOnlyMessagesNotYetBegun() {
        var untouched = OutboundQueue()
        untouched.append([1, 1])
        untouched.append([2, 2], startsMessage: false)
        untouched.append([3])
        #expect(untouched.dropUnstarted() == 5)
        #expect(untouched.isEmpty)

        var partial = OutboundQueue()
        partial.append([1, 1, 1])
        partial.append([2, 2], startsMessage: false)
        partial.append([3, 3, 3, 3])
        partial.append([4], startsMessage: false)
        partial.consume(1)
        #expect(partial.dropUnstarted() == 5)
        #expect(partial.queuedBytes == 4)
        partial.consume(2)
        #expect(partial.front.map { Array($0.chunk[$0.offset...]) } == [2, 2])

        var betweenParts = OutboundQueue()
        betweenParts.append([1])
        betweenParts.append([2, 2], startsMessage: false)
        betweenParts.append([3])
        betweenParts.consume(1)
        #expect(betweenParts.dropUnstarted() == 1)
        #expect(betweenParts.queuedBytes == 2)

        var atABoundary = OutboundQueue()
        atABoundary.append([1])
        atABoundary.append([2, 2])
        atABoundary.consume(1)
        #expect(atABoundary.dropUnstarted() == 2)
        #expect(atABoundary.isEmpty)
    }

    /// The soft limit reads the clock only while the queue is, or just was, above it.
    @Test func readsTheClockOnlyAboveTheSoftLimit() {
        var queue = OutboundQueue()
        queue.softLimit = OutputSoftLimitWatch(limit: OutputSoftLimit(bytes: 10, grace: 0))
        var reads = 0
        queue.append([UInt8](repeating: 1, count: 5))
        #expect(
            !queue.isOverSoftLimitTooLong {
                reads += 1; return 1
            })
        #expect(reads == 0)
        queue.append([UInt8](repeating: 1, count: 6))
        #expect(
            queue.isOverSoftLimitTooLong {
                reads += 1; return 2
            })
        queue.consume(11)
        #expect(
            !queue.isOverSoftLimitTooLong {
                reads += 1; return 3
            })
        #expect(
            !queue.isOverSoftLimitTooLong {
                reads += 1; return 4
            })
        #expect(reads == 2)
    }
}
