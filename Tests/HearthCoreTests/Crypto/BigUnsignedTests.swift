import HearthCore
import HearthTestKit
import Testing

/// Big-number arithmetic against 64-bit arithmetic and identities that hold for any size.
@Suite struct BigUnsignedTests {
    @Test func bytesRoundTripAndCompare() {
        let bytes: [UInt8] = [0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
        let number = BigUnsigned(bigEndian: bytes)
        #expect(number.bigEndianBytes(count: 9) == Array(bytes.dropFirst(2)))
        #expect(number.bigEndianBytes(count: 8) == nil)
        #expect(number.bitWidth == 65)
        #expect(BigUnsigned(bigEndian: [0, 0]).isZero && BigUnsigned(bigEndian: []).bitWidth == 0)
        #expect(BigUnsigned(5) < BigUnsigned(bigEndian: [1, 0, 0, 0, 0, 0, 0, 0, 0]))
        #expect(BigUnsigned(UInt64.max) < BigUnsigned(UInt64.max) * BigUnsigned(2))
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func smallValuesAgreeWith64BitArithmetic(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        for _ in 0..<2_000 {
            let a = UInt64.random(in: 0...UInt64(UInt32.max), using: &random)
            let b = UInt64.random(in: 0...UInt64(UInt32.max), using: &random)
            let m = UInt64.random(in: 1...UInt64.max, using: &random)
            #expect(BigUnsigned(a) * BigUnsigned(b) == BigUnsigned(a * b))
            #expect(BigUnsigned(a * b).remainder(dividingBy: BigUnsigned(m)) == BigUnsigned((a * b) % m))
            let exponent = UInt64.random(in: 0...70, using: &random)
            let small = UInt64.random(in: 2...1_000_003, using: &random)
            var expected: UInt64 = 1 % small
            for _ in 0..<exponent { expected = expected * (a % small) % small }
            #expect(BigUnsigned(a).power(BigUnsigned(exponent), modulo: BigUnsigned(small)) == BigUnsigned(expected))
        }
    }

    /// (q·m + r) mod m = r for random sizes: exercises every branch of the long division, add-back included.
    @Test(arguments: [7, 8] as [UInt64])
    func divisionRecoversTheRemainder(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        for _ in 0..<500 {
            let modulus = Self.random(limbs: Int.random(in: 1...40, using: &random), &random)
            guard !modulus.isZero else { continue }
            let quotient = Self.random(limbs: Int.random(in: 0...40, using: &random), &random)
            let remainder = Self.random(limbs: Int.random(in: 0...40, using: &random), &random)
                .remainder(dividingBy: modulus)
            #expect(remainder < modulus)
            #expect((quotient * modulus + remainder).remainder(dividingBy: modulus) == remainder)
        }
    }

    @Test func theTestKeyPairInverts() {
        let message = BigUnsigned(bigEndian: Array("a message smaller than the modulus".utf8))
        let signed = message.power(TestKeys.privateExponent, modulo: TestKeys.modulus)
        #expect(signed.power(BigUnsigned(65_537), modulo: TestKeys.modulus) == message)
    }

    /// A number of `limbs` random 32-bit limbs, often with runs of all-ones or zeros (the division's edge cases).
    static func random(limbs: Int, _ random: inout SeededRandom) -> BigUnsigned {
        var bytes: [UInt8] = []
        for _ in 0..<limbs * 4 {
            switch Int.random(in: 0..<4, using: &random) {
            case 0: bytes.append(0xFF)
            case 1: bytes.append(0)
            default: bytes.append(UInt8.random(in: 0...255, using: &random))
            }
        }
        return BigUnsigned(bigEndian: bytes)
    }
}
