import HearthCore
import Testing

/// SHA-256 against FIPS 180-4's examples, HMAC-SHA256 against RFC 4231's.
@Suite struct SHA256Tests {
    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    @Test func fipsExamples() {
        #expect(Self.hex(SHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            Self.hex(SHA256.hash(Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            Self.hex(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        var million = SHA256()
        for _ in 0..<1000 { million.update(repeatElement(UInt8(ascii: "a"), count: 1000)) }
        #expect(Self.hex(million.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func piecesGiveTheSameDigestAsTheWhole() {
        let message = (0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let whole = SHA256.hash(message)
        for cut in [0, 1, 55, 56, 63, 64, 65, 127, 999] {
            var hasher = SHA256()
            hasher.update(message[..<cut])
            hasher.update(message[cut...])
            #expect(hasher.finalize() == whole, "cut at \(cut)")
        }
    }

    @Test func rfc4231() {
        let cases: [([UInt8], [UInt8], String)] = [
            (
                [UInt8](repeating: 0x0B, count: 20), Array("Hi There".utf8),
                "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
            ),
            (
                Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
                "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
            ),
            (
                [UInt8](repeating: 0xAA, count: 131),
                Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
                "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
            ),
        ]
        for (key, message, expected) in cases {
            #expect(Self.hex(HMACSHA256.authenticationCode(for: message, key: key)) == expected)
        }
    }
}
