import HearthTestKit
import Testing

@testable import HearthCore

/// Keys held in small strings are compared from the strings' words (`Key+Inline.swift`); every comparison must agree
/// with the byte-wise order and equality, whatever form each string has.
@Suite struct KeyInlineTests {
    /// The same text as a small string and, where it fits one, as a heap string (the same key).
    static func forms(_ text: String) -> [Key] {
        var heap = String()
        heap.reserveCapacity(64)
        heap.append(text)
        return [Key(unchecked: String(decoding: Array(text.utf8), as: UTF8.self)), Key(unchecked: heap)]
    }

    /// Random keys over a small alphabet that makes long shared prefixes, integer keys and non-ASCII bytes common, of
    /// every length around the 8- and 15-byte steps: `<`, a probe's comparisons and `==` agree with the byte-wise
    /// order (`Key.precedes` over the UTF-8, falling back to UTF-16 order) and byte equality, for both forms of each.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func inlineComparisonsAgreeWithByteOrder(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let alphabet: [String] = ["a", "b", "r", "-", "0", "1", "9", "é", "Z", "~", "["]
        let texts = (0..<160).map { _ in
            let length = Int.random(in: 1...18, using: &random)
            return (0..<length).map { _ in alphabet.randomElement(using: &random) ?? "a" }.joined()
        }
        let keys = texts.flatMap(Self.forms)
        for left in keys {
            left.withProbe { probe in
                for right in keys {
                    let expected = Self.bytesPrecede(left.string, right.string)
                    #expect((left < right) == expected, "\(left) < \(right)")
                    #expect(probe?.precedes(right, probing: left) == expected, "probe \(left) < \(right)")
                    #expect(
                        probe?.follows(right, probing: left) == Self.bytesPrecede(right.string, left.string),
                        "\(right) < probe")
                    #expect((left == right) == Array(left.string.utf8).elementsEqual(right.string.utf8))
                }
            }
        }
    }

    /// Firebase order over two strings' bytes, the reference: `Key.precedes` where it decides, else UTF-16 order.
    static func bytesPrecede(_ left: String, _ right: String) -> Bool {
        let (l, r) = (Array(left.utf8), Array(right.utf8))
        let decided = l.withUnsafeBufferPointer { l in r.withUnsafeBufferPointer { r in Key.precedes(l, r) } }
        return decided ?? left.utf16.lexicographicallyPrecedes(right.utf16)
    }

    /// Integer keys and non-ASCII keys have no inline order (they take the byte-wise path); short names do.
    @Test func onlyShortASCIINamesHaveAnInlineOrder() {
        #expect(Key.InlineOrder(Key(unchecked: "u123")) != nil)
        #expect(Key.InlineOrder(Key(unchecked: "[MIN_NAME]")) != nil)
        #expect(Key.InlineOrder(Key(unchecked: "12")) == nil)
        #expect(Key.InlineOrder(Key(unchecked: "-3")) == nil)
        #expect(Key.InlineOrder(Key(unchecked: "é")) == nil)
        #expect(Key.InlineOrder(Key(unchecked: "a-name-of-sixteen")) == nil)
    }
}
