/// Makes Firebase push IDs: the child names `push()` and REST `POST` create, which sort in creation order.
///
/// An id is 20 characters from a 64-character, ASCII-ordered alphabet: 8 for the timestamp in milliseconds
/// (big-endian base 64), then 12 random digits (72 bits). When an id is asked for in the same millisecond as the
/// previous one, or after the clock went backwards, the generator keeps the previous timestamp and adds one to the
/// previous random digits (with carry), so one generator's ids strictly increase in string order. Time and
/// randomness come in as arguments, so tests replay exactly.
public struct PushIDGenerator: Sendable {
    /// The digits in value order; ASCII order matches value order, so ids compare like their numbers.
    static let alphabet: [UInt8] = Array("-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz".utf8)
    /// The number of timestamp characters.
    static let timestampLength = 8
    /// The number of random characters.
    static let randomLength = 12
    /// The largest timestamp 8 digits of base 64 can hold (2⁴⁸ − 1 ms, in the year 10889).
    static let maximumTimestamp: Int64 = (1 << 48) - 1

    /// The timestamp of the previous id, or -1 before the first.
    private var lastTimestamp: Int64
    /// The random digit values (0–63) of the previous id; empty before the first.
    private var lastRandom: [UInt8]

    public init() {
        self.lastTimestamp = -1
        self.lastRandom = []
    }

    /// The next id for the clock reading `milliseconds` (since the Unix epoch), drawing fresh random digits from
    /// `rng` whenever the timestamp moves forwards.
    ///
    /// Readings outside `0...2⁴⁸ − 1` are clamped into that range.
    /// - Complexity: O(1).
    public mutating func next(now milliseconds: Int64, using rng: inout some RandomNumberGenerator) -> String {
        let now = Swift.min(Swift.max(milliseconds, 0), Self.maximumTimestamp)
        if now > self.lastTimestamp {
            self.lastTimestamp = now
            self.lastRandom = (0..<Self.randomLength).map { _ in UInt8.random(in: 0..<64, using: &rng) }
        } else if !Self.increment(&self.lastRandom) {
            precondition(
                self.lastTimestamp < Self.maximumTimestamp,
                "PushIDGenerator exhausted in state lastTimestamp=\(self.lastTimestamp)"
            )
            self.lastTimestamp += 1
        }
        var characters: [UInt8] = []
        characters.reserveCapacity(Self.timestampLength + Self.randomLength)
        for position in 0..<Self.timestampLength {
            let shift = Int64(6 * (Self.timestampLength - 1 - position))
            characters.append(Self.alphabet[Int((self.lastTimestamp >> shift) & 63)])
        }
        for digit in self.lastRandom {
            characters.append(Self.alphabet[Int(digit)])
        }
        return String(decoding: characters, as: UTF8.self)
    }

    /// Adds one to base-64 `digits` (most significant first); returns false when it wrapped around to all zeros.
    private static func increment(_ digits: inout [UInt8]) -> Bool {
        var position = digits.count - 1
        while position >= 0 {
            if digits[position] < 63 {
                digits[position] += 1
                return true
            }
            digits[position] = 0
            position -= 1
        }
        return false
    }
}
