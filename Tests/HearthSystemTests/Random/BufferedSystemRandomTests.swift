import HearthSystem
import Testing

@Suite struct BufferedSystemRandomTests {
    /// Draws across many refills repeat nothing (two equal 64-bit draws in 10,000 would mean a refill gave the same
    /// bytes again, or the buffer was read twice), and every bit position is set about half the time.
    @Test func drawsAcrossRefillsAreFreshAndBalanced() {
        var random = BufferedSystemRandom()
        let draws = (0..<10_000).map { _ in random.next() }
        #expect(Set(draws).count == draws.count)
        for bit in 0..<64 {
            let ones = draws.count { $0 >> UInt64(bit) & 1 == 1 }
            #expect((4_500...5_500).contains(ones), "bit \(bit) was set in \(ones) of 10,000 draws")
        }
    }

    /// Two generators never hand out the same bytes.
    @Test func twoGeneratorsDrawDifferentNumbers() {
        var first = BufferedSystemRandom()
        var second = BufferedSystemRandom()
        let a = (0..<64).map { _ in first.next() }
        let b = (0..<64).map { _ in second.next() }
        #expect(Set(a).isDisjoint(with: b))
    }
}
