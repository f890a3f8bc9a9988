import HearthTestKit
import Testing

@testable import HearthCore

/// `Key.separators(inKeyBytes:)`, eight bytes at a time, against a byte-by-byte reading of the rule: the count of
/// `/` when every other byte may sit in a key, nil when one may not.
@Suite struct KeySeparatorsTests {
    /// The rule read one byte at a time.
    private static func expected(_ bytes: [UInt8]) -> Int? {
        let forbidden: Set<UInt8> = Set(Array(".$#[]".utf8) + Array(0x00...0x1F) + [0x7F])
        guard !bytes.contains(where: forbidden.contains) else { return nil }
        return bytes.count { $0 == UInt8(ascii: "/") }
    }

    /// Random paths of 0 to 40 bytes, mostly key bytes and slashes with now and then any byte at all (every byte
    /// value turns up in every position of a word), and every single byte alone and inside a long plain path.
    @Test func wordsCountAsBytesDo() {
        var random = SeededRandom(seed: 35)
        let common = Array("abz09-_/é".utf8)
        var refused = 0
        for _ in 0..<50_000 {
            let bytes = (0..<Int.random(in: 0...40, using: &random)).map { _ in
                Int.random(in: 0..<12, using: &random) == 0
                    ? UInt8.random(in: 0...255, using: &random)
                    : common[Int.random(in: 0..<common.count, using: &random)]
            }
            let counted = bytes.withUnsafeBufferPointer { Key.separators(inKeyBytes: $0) }
            #expect(counted == Self.expected(bytes), "\(bytes)")
            if counted == nil { refused += 1 }
        }
        #expect(refused > 5_000)
        for byte in UInt8.min...UInt8.max {
            for position in [0, 5, 7, 8, 15, 20] {
                var bytes = Array("posts/r1a2b3c4d-p7/stars/u12".utf8)
                bytes[position] = byte
                #expect(bytes.withUnsafeBufferPointer { Key.separators(inKeyBytes: $0) } == Self.expected(bytes))
            }
        }
    }
}
