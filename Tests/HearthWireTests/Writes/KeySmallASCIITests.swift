import HearthCore
import HearthTestKit
import Testing

@testable import HearthWire

/// Keys made from their bytes as small strings (`Key.smallASCII`) and the few-member sort of an update's keys
/// (`WriteRules.DataReader.sort`), against the standard library's ways.
@Suite struct KeySmallASCIITests {
    /// A string's two words.
    private static func words(_ string: String) -> (UInt64, UInt64) {
        unsafeBitCast(string, to: (UInt64, UInt64).self)
    }

    /// Every length a small string holds, with random ASCII bytes (controls and DEL among them): the key has the very
    /// words `String(decoding:as:)` gives, so it equals, hashes and orders as the key made that way.
    @Test func smallASCIIKeysAreTheStandardLibrarysStrings() {
        var random = SeededRandom(seed: 35)
        for count in 0...15 {
            for _ in 0..<200 {
                let bytes = (0..<count).map { _ in UInt8.random(in: 0...0x7F, using: &random) }
                let made = bytes.withUnsafeBufferPointer { Key.smallASCII($0) }
                let expected = String(decoding: bytes, as: UTF8.self)
                guard let made else {
                    Issue.record("\(count) ASCII bytes made no key")
                    continue
                }
                #expect(Self.words(made.string) == Self.words(expected), "\(bytes)")
                #expect(made == Key(unchecked: expected) && made.hashValue == Key(unchecked: expected).hashValue)
                #expect(made.string.utf8.count == count && Array(made.string.utf8) == bytes)
            }
        }
    }

    /// Bytes that are not a small ASCII string make no key: too many, or any byte past ASCII.
    @Test func otherBytesMakeNoKey() {
        for bytes in [
            Array(repeating: UInt8(ascii: "k"), count: 16), Array("é".utf8), Array("abcdefgh中".utf8),
            Array("abcdefghijklm\u{80}".utf8), [0xFF],
        ] {
            #expect(bytes.withUnsafeBufferPointer { Key.smallASCII($0) } == nil, "\(bytes)")
        }
    }

    /// The sort of an update's member keys by their bytes, by insertion for a few and the standard sort for more,
    /// orders as sorting the byte arrays does (equal keys next to each other).
    @Test func updateKeysSortByTheirBytes() {
        var random = SeededRandom(seed: 36)
        let pieces = ["a", "b", "é", "posts/", "stars", "/", "ab", "a/b", "z", "0"]
        for _ in 0..<2000 {
            let members = (0..<Int.random(in: 0...12, using: &random)).map { _ in
                (0..<Int.random(in: 0...3, using: &random)).map { _ in
                    pieces[Int.random(in: 0..<pieces.count, using: &random)]
                }.joined()
            }
            var bytes: [UInt8] = []
            var keys: [Range<Int>] = []
            for member in members {
                keys.append(bytes.count..<(bytes.count + member.utf8.count))
                bytes += member.utf8
            }
            var order = Array(keys.indices)
            bytes.withUnsafeBufferPointer { bytes in
                keys.withUnsafeBufferPointer { WriteRules.DataReader.sort(&order, keys: $0, in: bytes) }
            }
            let sorted = order.map { Array(members[$0].utf8) }
            #expect(sorted == members.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }, "\(members)")
            #expect(Set(order).count == members.count)
        }
    }
}
