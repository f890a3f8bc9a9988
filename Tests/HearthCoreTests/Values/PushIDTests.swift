import HearthCore
import HearthTestKit
import Testing

@Suite struct PushIDTests {
    static let alphabet = Set("-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz")

    /// A generator whose every draw is `value`, to pin the random digits.
    struct ConstantRandom: RandomNumberGenerator {
        let value: UInt64
        mutating func next() -> UInt64 { self.value }
    }

    @Test func timestampIsEncodedInTheFirstEightCharacters() {
        var generator = PushIDGenerator()
        var random = SeededRandom(seed: 9)
        let id = generator.next(now: 1_700_000_000_000, using: &random)
        #expect(id.hasPrefix("-NjEtLV-"))
        #expect(id.count == 20)
        #expect(id.allSatisfy { Self.alphabet.contains($0) })
    }

    @Test func idsInOneMillisecondStrictlyIncrease() {
        var generator = PushIDGenerator()
        var random = SeededRandom(seed: 10)
        var previous = generator.next(now: 1_700_000_000_000, using: &random)
        for index in 0..<10_000 {
            let id = generator.next(now: 1_700_000_000_000, using: &random)
            #expect(previous < id, "id \(index): \(previous) then \(id), seed 10")
            #expect(id.hasPrefix("-NjEtLV-"))
            previous = id
        }
    }

    /// `-----------z` + 1 = `----------0-`: the last digit wraps and carries.
    @Test func sameMillisecondIncrementsWithCarry() {
        var generator = PushIDGenerator()
        var zeros = ConstantRandom(value: 0)
        let ids = (0..<65).map { _ in generator.next(now: 1_700_000_000_000, using: &zeros) }
        #expect(ids[0] == "-NjEtLV-------------")
        #expect(ids[1] == "-NjEtLV------------0")
        #expect(ids[63] == "-NjEtLV------------z")
        #expect(ids[64] == "-NjEtLV-----------0-")
    }

    @Test func exhaustedRandomDigitsCarryIntoTheTimestamp() {
        var generator = PushIDGenerator()
        var ones = ConstantRandom(value: .max)
        let first = generator.next(now: 1_700_000_000_000, using: &ones)
        let second = generator.next(now: 1_700_000_000_000, using: &ones)
        #expect(first == "-NjEtLV-zzzzzzzzzzzz")
        #expect(second == "-NjEtLV0------------")
        #expect(first < second)
    }

    @Test func backwardsClockStillYieldsIncreasingIDs() {
        var generator = PushIDGenerator()
        var random = SeededRandom(seed: 11)
        let clock: [Int64] = [
            1_700_000_000_000, 1_699_999_999_000, 1_699_999_999_999, 1_700_000_000_000, 5,
            1_700_000_000_001, 1_700_000_000_001, 1_600_000_000_000, 1_700_000_000_002,
        ]
        var previous = ""
        for (step, now) in clock.enumerated() {
            let id = generator.next(now: now, using: &random)
            #expect(previous < id, "step \(step) at \(now): \(previous) then \(id), seed 11")
            previous = id
        }
        #expect(previous.hasPrefix(String(generator.next(now: 0, using: &random).prefix(8))))
    }

    @Test func laterMillisecondsDrawFreshRandomDigits() {
        var generator = PushIDGenerator()
        var random = SeededRandom(seed: 12)
        let first = generator.next(now: 1_700_000_000_000, using: &random)
        let second = generator.next(now: 1_700_000_000_001, using: &random)
        #expect(first.prefix(8) != second.prefix(8))
        #expect(first.suffix(12) != second.suffix(12))
        #expect(first < second)
    }
}
