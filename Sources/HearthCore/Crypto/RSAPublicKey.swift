/// An RSA public key and the one thing tokens need of it: verifying an RSASSA-PKCS1-v1_5 signature over SHA-256
/// (RFC 8017 §8.2.2, JWS `RS256`).
public struct RSAPublicKey: Sendable, Hashable {
    public let modulus: BigUnsigned
    public let exponent: BigUnsigned

    /// The smallest modulus accepted: keys below 2048 bits are refused when read.
    public static let minimumBits = 2048

    /// - Throws: `DERError` for a modulus under 2048 bits or an exponent that is even or below 3.
    public init(modulus: BigUnsigned, exponent: BigUnsigned) throws(DERError) {
        guard modulus.bitWidth >= Self.minimumBits else {
            throw DERError("The RSA key has \(modulus.bitWidth) bits; at least \(Self.minimumBits) are required.")
        }
        guard exponent.bitWidth >= 2, exponent.isOdd, exponent < modulus else {
            throw DERError("The RSA key's public exponent is not an odd number of at least 3.")
        }
        self.modulus = modulus
        self.exponent = exponent
    }

    /// The modulus's length in bytes: every signature has exactly this many.
    public var byteCount: Int { (self.modulus.bitWidth + 7) / 8 }

    /// Whether `signature` is this key's RS256 signature of `message`. Anything malformed (a wrong length, a value
    /// not below the modulus, any difference in the padding or the digest's encoding) is simply not a signature.
    public func verifiesSHA256(signature: [UInt8], of message: [UInt8]) -> Bool {
        let length = self.byteCount
        guard signature.count == length else { return false }
        let value = BigUnsigned(bigEndian: signature)
        guard value < self.modulus else { return false }
        guard let encoded = value.power(self.exponent, modulo: self.modulus).bigEndianBytes(count: length) else {
            return false
        }
        let digest = Self.sha256DigestInfo + SHA256.hash(message)
        guard length >= digest.count + 11 else { return false }
        let expected = [0x00, 0x01] + [UInt8](repeating: 0xFF, count: length - digest.count - 3) + [0x00] + digest
        var difference: UInt8 = 0
        for (left, right) in zip(encoded, expected) { difference |= left ^ right }
        return difference == 0
    }

    /// DER of DigestInfo { sha256, NULL } up to the digest (RFC 8017 §9.2, note 1).
    static let sha256DigestInfo: [UInt8] = [
        0x30, 0x31, 0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04,
        0x20,
    ]
}

extension RSAPublicKey {
    /// The OID rsaEncryption, 1.2.840.113549.1.1.1, as DER contents.
    static let rsaEncryption: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]

    /// Reads PKCS#1's `RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER }`.
    public init(pkcs1 der: ArraySlice<UInt8>) throws(DERError) {
        var outer = DERReader(der)
        var key = DERReader(try outer.next(DERReader.sequence).contents)
        let modulus = try key.nextUnsigned()
        let exponent = try key.nextUnsigned()
        guard key.isAtEnd, outer.isAtEnd else { throw DERError("An RSAPublicKey has exactly two INTEGERs.") }
        try self.init(modulus: modulus, exponent: exponent)
    }

    /// Reads a SubjectPublicKeyInfo (PEM `PUBLIC KEY`) holding an RSA key.
    public init(subjectPublicKeyInfo der: ArraySlice<UInt8>) throws(DERError) {
        var outer = DERReader(der)
        try self.init(spki: try outer.next(DERReader.sequence))
        guard outer.isAtEnd else { throw DERError("Data follows the SubjectPublicKeyInfo.") }
    }

    /// Reads the public key of an X.509 certificate (PEM `CERTIFICATE`, as Google publishes Firebase's keys). Only
    /// the key is taken: a token's signature is what proves anything, so the certificate's own dates and signature
    /// are not checked (Firebase's Admin SDKs do the same).
    public init(certificate der: ArraySlice<UInt8>) throws(DERError) {
        var outer = DERReader(der)
        var certificate = DERReader(try outer.next(DERReader.sequence).contents)
        var tbs = DERReader(try certificate.next(DERReader.sequence).contents)
        var element = try tbs.next()
        if element.tag == 0xA0 { element = try tbs.next() }  // [0] version
        guard element.tag == DERReader.integer else { throw DERError("A certificate starts with its serial number.") }
        for _ in 0..<4 { _ = try tbs.next() }  // signature algorithm, issuer, validity, subject
        try self.init(spki: try tbs.next(DERReader.sequence))
    }

    private init(spki: DERReader.Element) throws(DERError) {
        var info = DERReader(spki.contents)
        var algorithm = DERReader(try info.next(DERReader.sequence).contents)
        guard Array(try algorithm.next(DERReader.objectIdentifier).contents) == Self.rsaEncryption else {
            throw DERError("The public key is not an RSA key.")
        }
        let bits = try info.next(DERReader.bitString).contents
        guard bits.first == 0 else { throw DERError("The public key's BIT STRING has unused bits.") }
        try self.init(pkcs1: bits.dropFirst())
    }
}
