import HearthCore
import HearthTestKit
import Testing

@Suite struct Base64Tests {
    /// RFC 4648 §10 test vectors.
    @Test(arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ])
    func encodesAndDecodesRFC4648Vectors(plain: String, encoded: String) {
        #expect(Base64.encode(Array(plain.utf8)) == encoded)
        #expect(Base64.decode(encoded) == Array(plain.utf8))
    }

    @Test func usesTheStandardAlphabetForHighBits() {
        #expect(Base64.encode([0xFB, 0xFF, 0xBF]) == "+/+/")
        #expect(Base64.decode("+/+/") == [0xFB, 0xFF, 0xBF])
    }

    @Test(arguments: ["Zg", "Zg=", "Z===", "Zg=a", "Zm9v!A==", "Zh==", "Zm9=", "Zg==Zg==", "Zm 9v", "-_-_"])
    func rejectsMalformedText(text: String) {
        #expect(Base64.decode(text) == nil)
    }

    @Test func randomBytesRoundTrip() {
        var random = SeededRandom(seed: 64)
        for length in 0..<200 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            let text = Base64.encode(bytes)
            #expect(text.utf8.count == (length + 2) / 3 * 4)
            #expect(Base64.decode(text) == bytes, "length \(length), seed 64")
        }
    }

    /// Contiguous bytes take a fast path; any other collection must encode to the same text.
    @Test func contiguousAndOtherCollectionsEncodeAlike() {
        var random = SeededRandom(seed: 65)
        for length in 0..<100 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            #expect(Base64.encode(bytes) == Base64.encode(bytes.lazy.map { $0 }), "length \(length), seed 65")
            #expect(Base64.encode(bytes[...]) == Base64.encode(bytes), "length \(length), seed 65")
        }
    }
}
