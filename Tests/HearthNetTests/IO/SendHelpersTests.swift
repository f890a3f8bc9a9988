import Glibc
import HearthSystem
import Testing

@testable import HearthNet

/// Helpers send beside the caller, each taking the batch's next connection: each connection's bytes leave once, in
/// order, up to what its socket takes, and what is left stays queued for the next flush.
@Suite struct SendHelpersTests {
    /// A non-blocking stream socket pair: the first end is written, the second read.
    private static func socketPair() throws -> (write: Int32, read: Int32) {
        var ends: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else {
            throw IOError(.syscallFailed, "socketpair failed: errno \(errno)")
        }
        for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        return (ends[0], ends[1])
    }

    /// Everything readable on `descriptor` now.
    private static func drain(_ descriptor: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return bytes }
            bytes += buffer[..<count]
        }
    }

    @Test(.timeLimit(.minutes(1))) func everyShareArrivesOnceAndInOrder() throws {
        let inbox = try ReactorInbox()
        let counters = NetworkCounters()
        let helpers = try SendHelpers(count: 2, counters: counters)
        defer { helpers.stop() }
        let pairs = try (0..<60).map { _ in try Self.socketPair() }
        defer { for pair in pairs { close(pair.write); close(pair.read) } }
        let writers = pairs.indices.map { ConnectionWriter(id: UInt64($0 + 2), limit: 64 << 20, inbox: inbox) }
        // Small messages that are gathered into one send, then one larger than a socket takes at once.
        var expected: [[UInt8]] = []
        for (index, writer) in writers.enumerated() {
            let small = (0..<3).map { Array("c\(index)m\($0);".utf8) }
            let large = (0..<(600 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }
            for message in small + [large] { #expect(writer.write(message)) }
            expected.append(small.flatMap { $0 } + large)
        }
        var received = Array(repeating: [UInt8](), count: pairs.count)
        let gather = UnsafeMutableRawBufferPointer.allocate(byteCount: Reactor.readBufferSize, alignment: 16)
        defer { gather.deallocate() }
        for round in 0..<200 {
            let targets = zip(pairs, writers).map { (descriptor: $0.write, writer: $1) }
            helpers.send(targets, gather: gather)
            for (index, pair) in pairs.enumerated() { received[index] += Self.drain(pair.read) }
            let queued = writers.reduce(0) { $0 + $1.queue.withLock { $0.queuedBytes } }
            if queued == 0 { break }
            #expect(round < 199, "the queues never emptied")
        }
        for index in pairs.indices {
            #expect(received[index] == expected[index], "connection \(index)")
        }
        let total = expected.reduce(0) { $0 + $1.count }
        #expect(counters.snapshot.bytesWritten == UInt64(total))
    }

    @Test func anEmptyBatchReturnsAndStoppingTwiceIsHarmless() throws {
        let helpers = try SendHelpers(count: 3, counters: NetworkCounters())
        let gather = UnsafeMutableRawBufferPointer.allocate(byteCount: 1024, alignment: 16)
        defer { gather.deallocate() }
        for _ in 0..<100 { helpers.send([], gather: gather) }
        helpers.stop()
        helpers.stop()
    }
}
