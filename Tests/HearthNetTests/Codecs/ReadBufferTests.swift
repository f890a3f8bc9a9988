import Testing

@testable import HearthNet

@Suite struct ReadBufferTests {
    @Test func readsForwardAndDropsTheConsumedFrontOnlyWhenItPays() {
        var buffer = ReadBuffer()
        buffer.append(Array(repeating: 1, count: 10_000))
        buffer.readIndex = 3_000
        buffer.append([2])
        #expect(buffer.bytes.count == 10_001)  // 3,000 consumed of 10,001: not yet half
        buffer.readIndex = 6_000
        buffer.append([3])
        #expect(buffer.readIndex == 0 && buffer.bytes.count == 4_002)
        #expect(buffer.unreadCount == 4_002)
        #expect(buffer[unread: 4_000] == 2 && buffer[unread: 4_001] == 3)
    }

    @Test func aFullyConsumedBufferStartsOver() {
        var buffer = ReadBuffer()
        buffer.append([1, 2, 3])
        buffer.readIndex = 3
        buffer.append([4])
        #expect(buffer.bytes == [4] && buffer.readIndex == 0)
        buffer.removeAll()
        #expect(buffer.unreadCount == 0)
    }
}
