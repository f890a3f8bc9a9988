import HearthCore
import HearthTestKit
import Testing

/// RS256 verification: OpenSSL's signature of a known token, the key read from a certificate, and every way a
/// signature can be malformed (in the spirit of Wycheproof's PKCS#1 v1.5 cases) refused.
@Suite struct RSAPublicKeyTests {
    private static func key() throws -> RSAPublicKey {
        try RSAPublicKey(modulus: TestKeys.modulus, exponent: BigUnsigned(65_537))
    }

    private static func parts(_ token: String) throws -> (input: [UInt8], signature: [UInt8]) {
        let pieces = token.split(separator: ".")
        let signature = try #require(Base64.decodeURL(String(pieces[2])))
        return (Array("\(pieces[0]).\(pieces[1])".utf8), signature)
    }

    @Test func opensslsSignatureVerifiesAndTheCertificateHoldsTheKey() throws {
        let (input, signature) = try Self.parts(TestKeys.opensslIDToken)
        let key = try Self.key()
        #expect(key.verifiesSHA256(signature: signature, of: input))
        #expect(!key.verifiesSHA256(signature: signature, of: input + [0x20]))
        let block = try #require(try PEM.blocks(in: TestKeys.certificatePEM).first)
        #expect(block.label == "CERTIFICATE")
        #expect(try RSAPublicKey(certificate: block.der[...]) == key)
        #expect(TestKeys.sign(input) == signature, "PKCS#1 v1.5 is deterministic: our signing matches OpenSSL's")
    }

    @Test func malformedSignaturesAreRefused() throws {
        let key = try Self.key()
        let message = Array("header.payload".utf8)
        let good = TestKeys.sign(message)
        #expect(key.verifiesSHA256(signature: good, of: message))
        var flipped = good
        flipped[100] ^= 1
        #expect(!key.verifiesSHA256(signature: flipped, of: message))
        #expect(!key.verifiesSHA256(signature: Array(good.dropFirst()), of: message), "one byte short")
        #expect(!key.verifiesSHA256(signature: [0] + good, of: message), "one byte long")
        #expect(!key.verifiesSHA256(signature: [], of: message))
        #expect(
            !key.verifiesSHA256(signature: TestKeys.modulus.bigEndianBytes(count: 256) ?? [], of: message),
            "a value not below the modulus")
        let prefix = TestKeys.digestInfoPrefix
        let broken: [(String, ([UInt8], Int) -> [UInt8])] = [
            ("block type 2", { [0, 2] + [UInt8](repeating: 0xFF, count: $1 - 54) + [0] + prefix + $0 }),
            (
                "a padding byte not 0xFF",
                { [0, 1, 0xFE] + [UInt8](repeating: 0xFF, count: $1 - 55) + [0] + prefix + $0 }
            ),
            ("no zero separator", { [0, 1] + [UInt8](repeating: 0xFF, count: $1 - 53) + prefix + $0 }),
            (
                "SHA-1's DigestInfo",
                {
                    [0, 1] + [UInt8](repeating: 0xFF, count: $1 - 54) + [0] + [
                        0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2B,
                        0x0E, 0x03, 0x02, 0x1A, 0x05, 0x00, 0x04, 0x14,
                    ] + Array($0.prefix(20)) + [0, 0, 0, 0]
                }
            ),
            (
                "DigestInfo without NULL",
                {
                    [0, 1] + [UInt8](repeating: 0xFF, count: $1 - 52) + [
                        0, 0x30, 0x2F, 0x30, 0x0B,
                        0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x04, 0x20,
                    ] + $0
                }
            ),
            ("another digest", { [0, 1] + [UInt8](repeating: 0xFF, count: $1 - 54) + [0] + prefix + $0.reversed() }),
            (
                "garbage after the digest",
                { [0, 1] + [UInt8](repeating: 0xFF, count: $1 - 58) + [0] + prefix + $0 + [1, 2, 3, 4] }
            ),
        ]
        for (name, encoded) in broken {
            let signature = TestKeys.sign(message, encoded: encoded)
            #expect(signature.count == 256, "\(name)")
            #expect(!key.verifiesSHA256(signature: signature, of: message), "\(name) must not verify")
        }
    }

    @Test func weakKeysAndBrokenDERAreRefused() throws {
        #expect(throws: DERError.self) {
            try RSAPublicKey(
                modulus: BigUnsigned(bigEndian: [UInt8](repeating: 0xC5, count: 128)), exponent: BigUnsigned(65_537))
        }
        #expect(throws: DERError.self) { try RSAPublicKey(modulus: TestKeys.modulus, exponent: BigUnsigned(65_536)) }
        #expect(throws: DERError.self) { try RSAPublicKey(modulus: TestKeys.modulus, exponent: BigUnsigned(1)) }
        let block = try #require(try PEM.blocks(in: TestKeys.certificatePEM).first)
        for cut in [1, 10, 100, block.der.count - 1] {
            #expect(throws: DERError.self, "cut at \(cut)") { try RSAPublicKey(certificate: block.der.prefix(cut)) }
        }
        #expect(throws: DERError.self) { try RSAPublicKey(pkcs1: [0x30, 0x81, 0x03, 0x02, 0x01, 0x05][...]) }
        #expect(throws: DERError.self) { try PEM.blocks(in: "-----BEGIN CERTIFICATE-----\nAAAA\n") }
    }
}
