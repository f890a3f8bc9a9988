import HearthNet
import HearthTestKit
import Testing

@Suite struct WebSocketMaskingKeyTests {
    /// The definition of masking (RFC 6455 §5.3): byte `i` of the payload XORed with key byte `i mod 4`.
    private static func maskedByteWise(
        _ bytes: [UInt8], key: WebSocketMaskingKey, range: Range<Int>, payloadOffset: Int
    ) -> [UInt8] {
        var masked = bytes
        for index in range { masked[index] ^= key[payloadOffset + index - range.lowerBound] }
        return masked
    }

    /// Masking eight bytes at a time gives what masking byte by byte gives, for every length, position in the
    /// array and key phase (payload offset), including ranges shorter than a word and empty ones.
    @Test func wordAtATimeMatchesByteWiseOverRandomRangesAndOffsets() {
        var random = SeededRandom(seed: 35)
        for _ in 0..<2000 {
            let count = Int.random(in: 0...80, using: &random)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            let lower = Int.random(in: 0...count, using: &random)
            let upper = Int.random(in: lower...count, using: &random)
            let offset = Int.random(in: 0...1_000_000, using: &random)
            let key = WebSocketMaskingKey(using: &random)
            var masked = bytes
            key.apply(to: &masked, in: lower..<upper, payloadOffset: offset)
            #expect(masked == Self.maskedByteWise(bytes, key: key, range: lower..<upper, payloadOffset: offset))
        }
    }

    /// Masking twice with the same key and phase gives the bytes back (unmasking is masking).
    @Test func maskingTwiceRestoresThePayload() {
        var random = SeededRandom(seed: 6455)
        let bytes = (0..<1027).map { _ in UInt8.random(in: 0...255, using: &random) }
        let key = WebSocketMaskingKey(0x37, 0xFA, 0x21, 0x3D)
        var masked = bytes
        key.apply(to: &masked, in: 3..<1027, payloadOffset: 5)
        #expect(masked != bytes)
        key.apply(to: &masked, in: 3..<1027, payloadOffset: 5)
        #expect(masked == bytes)
    }
}
