import HearthTestKit
import Testing

@testable import HearthCore

/// The word-at-a-time byte scans find what a byte-by-byte scan finds, for every length (whole words and the tail
/// bytes), every start and bytes that differ from the wanted one only in their top bit.
@Suite struct ByteWordsTests {
    @Test func scansFindWhatAByteByByteScanFinds() {
        var random = SeededRandom(seed: 37)
        // The wanted byte, its neighbours and its top-bit twin: the values a carry between bytes would confuse.
        let alphabet: [UInt8] = [0x2F, 0x2E, 0x30, 0xAF, 0x00, 0xFF, 0x0A, 0x0D, 0x8A]
        for _ in 0..<2_000 {
            let bytes = (0..<Int.random(in: 0...40, using: &random)).map { _ in
                alphabet[Int.random(in: 0..<alphabet.count, using: &random)]
            }
            for wanted in [UInt8(0x2F), 0x0A, 0x00, 0xFF] {
                bytes.withUnsafeBufferPointer { buffer in
                    #expect(ByteWords.count(of: wanted, in: buffer) == bytes.count { $0 == wanted })
                    for start in 0...bytes.count {
                        let expected = bytes[start...].firstIndex(of: wanted) ?? bytes.count
                        #expect(ByteWords.firstIndex(of: wanted, in: buffer, from: start) == expected)
                    }
                    guard let base = buffer.baseAddress, bytes.count >= 8 else { return }
                    let found = ByteWords.matches(wanted, in: ByteWords.word(UnsafeRawPointer(base), at: 0))
                    for offset in 0..<8 {
                        #expect((found >> (8 * UInt64(offset) + 7)) & 1 == (bytes[offset] == wanted ? 1 : 0))
                    }
                }
            }
        }
    }

    @Test func anEmptyBufferHoldsNothing() {
        let empty = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        #expect(ByteWords.count(of: 0x2F, in: empty) == 0)
        #expect(ByteWords.firstIndex(of: 0x2F, in: empty, from: 0) == 0)
    }
}
