import HearthCore
import HearthTestKit
import Testing

@Suite struct SHA1Tests {
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] })
    }

    /// FIPS 180 examples: one block, the empty message and the two-block message.
    @Test(arguments: [
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
    ])
    func digestsMatchFIPSVectors(message: String, expected: String) {
        #expect(Self.hex(SHA1.hash(Array(message.utf8))) == expected)
        #expect(Self.hex(SHA1.hash(message.utf8)) == expected)
    }

    @Test func digestOfOneMillionAsMatchesFIPSVector() {
        var hasher = SHA1()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 {
            hasher.update(chunk)
        }
        #expect(Self.hex(hasher.finalize()) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    /// Messages around the padding boundaries (55, 56, 63, 64 bytes…) give the same digest however they are split.
    @Test func splittingTheInputNeverChangesTheDigest() {
        var random = SeededRandom(seed: 0x5A1)
        for length in [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000] {
            let message = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            let whole = SHA1.hash(message)
            var pieces = SHA1()
            var start = 0
            while start < message.count {
                let end = min(message.count, start + Int.random(in: 1...70, using: &random))
                if Bool.random(using: &random) {
                    message[start..<end].withUnsafeBytes { pieces.update($0) }
                } else {
                    pieces.update(message[start..<end].lazy.map { $0 })
                }
                start = end
            }
            #expect(pieces.finalize() == whole, "length \(length), seed 0x5A1")
            #expect(whole.count == 20)
        }
    }
}
