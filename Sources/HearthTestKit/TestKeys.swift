public import HearthCore

/// A 2048-bit RSA key pair made with OpenSSL for tests (`openssl req -x509 -newkey rsa:2048`): its modulus,
/// private exponent and self-signed certificate, and an ID token OpenSSL signed with it. Test material only.
public enum TestKeys {
    /// The modulus, hexadecimal.
    public static let modulusHex =
        "dcc832ac0f822dfa4295a88703c60677f8de0f9aedefeb66b539bb6c78d692e8b5c7422337a4b3b0465343899914ca68"
        + "58a1958dff1621fea08ddd649095854d05cc644d3a626ed3db3702aac752bc45495eded00f2b1c9aaa9b2a853914325f"
        + "9fc60d195531edd944cd906de3a67a211622dc41795456a90d2ec88c6286faed9f65d9c94db10a57c7984cb52bdbba97"
        + "cd123866d45f7095d34d575090ae0ce47dc6c53e2ad6e0d70d53d03dcf9a71cd9d0af94aeab655bf2733d69d0a1a3973"
        + "89f3acdfc48cdb658ae07330221f5348bccfdb71a0aecd818c74e556fabd5d6ca241b6298950c478df1df92304a86c88"
        + "75bfb392751287c317e3c6296f3adc87"
    /// The private exponent, hexadecimal (signing tokens in tests).
    public static let privateExponentHex =
        "28568068ceb387c45fef0970baa92981eb012a41c8195d5540b89e061e54d0634593109ddf4dc8a99708c8841147d756"
        + "2c0ab0033afdddcaf363033358b31fcdaef55a1f758d1aa2a4f9abdbc5e625756ba364866c449d97b98144f6ac06bca3"
        + "a66e8056df82a88616adc77fb619f0066cec419ad4d0787b29e2a6d72eb2fb6fcd6a3f89cf2457f047bfc619c1532e1e"
        + "53f295be7981edcda1b2fe7e33db7bde267395bf1818f0b22c76ab6dc1f8e1d8b384627e729330ad3aa7184ba7006ac5"
        + "85d9fb64bb86c2f314d4f6940c46d8d15644a4fb28e17ac81e6cc5ce4a16bd28bc56e3b014e1761227033ac2bacd61d7"
        + "93355883dec7b4a03bf73e4859b3b4d"
    /// The self-signed certificate holding the public key, as Google publishes Firebase's keys.
    public static let certificatePEM = """
        -----BEGIN CERTIFICATE-----
        MIIDDTCCAfWgAwIBAgIUTk9T8O37jmmw4vrOwApiv6PhCBMwDQYJKoZIhvcNAQEL
        BQAwFjEUMBIGA1UEAwwLaGVhcnRoLXRlc3QwHhcNMjYxMTI2MTUwMjA1WhcNMzYx
        MTIzMTUwMjA1WjAWMRQwEgYDVQQDDAtoZWFydGgtdGVzdDCCASIwDQYJKoZIhvcN
        AQEBBQADggEPADCCAQoCggEBANzIMqwPgi36QpWohwPGBnf43g+a7e/rZrU5u2x4
        1pLotcdCIzeks7BGU0OJmRTKaFihlY3/FiH+oI3dZJCVhU0FzGRNOmJu09s3AqrH
        UrxFSV7e0A8rHJqqmyqFORQyX5/GDRlVMe3ZRM2QbeOmeiEWItxBeVRWqQ0uyIxi
        hvrtn2XZyU2xClfHmEy1K9u6l80SOGbUX3CV001XUJCuDOR9xsU+Ktbg1w1T0D3P
        mnHNnQr5Suq2Vb8nM9adCho5c4nzrN/EjNtliuBzMCIfU0i8z9txoK7NgYx05Vb6
        vV1sokG2KYlQxHjfHfkjBKhsiHW/s5J1EofDF+PGKW863IcCAwEAAaNTMFEwHQYD
        VR0OBBYEFBLoMKcM8WywQAcB5I88UMm6yDEXMB8GA1UdIwQYMBaAFBLoMKcM8Wyw
        QAcB5I88UMm6yDEXMA8GA1UdEwEB/wQFMAMBAf8wDQYJKoZIhvcNAQELBQADggEB
        AKHB+59RsJOCcohmvhl0mQ/tFnA2sxoLxN9T12pmZMqhG4ZE8QUqUrduQMXLSn4h
        fVhvE2Ait0WZdqlLDsClfQq7ZsuyExcwDxcTMiHlXjAjREVn80VXKuYvuOblnvgN
        D57JZ6qPjt/jvzyqxTrgwGqmdCB1EYpLvvcH7oGOMseZRe6eRAeQSACDwBzrecaW
        pn2h8oDg/sx1e9Qs1SDdKXRJ9w3eJB7YbPNZ9pFg3Mf1CIsk1D1OHT1jMevJfO+T
        aexdPj+4SkGB+WM9iZO37RTV6Q263Elr8+mVPuwwcVvCtUUvz6KeppQ9aGznj0QA
        Iimzt2aAa3N5SjXwokgvWAc=
        -----END CERTIFICATE-----
        """
    /// The certificate under key id `k1` in the JSON Google serves Firebase's keys in (`{"kid": "PEM", …}`).
    public static var certificatesJSON: String {
        #"{"k1": "\#(Self.certificatePEM.split(separator: "\n").joined(separator: "\\n"))"}"#
    }

    /// An ID token for project `hearth-test`, user `ada` (iat 1700000000, exp 1700003600), signed by OpenSSL with
    /// this key under key id `k1`.
    public static let opensslIDToken =
        "eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL3NlY3VyZXRva2VuLmdvb2ds"
        + "ZS5jb20vaGVhcnRoLXRlc3QiLCJhdWQiOiJoZWFydGgtdGVzdCIsImF1dGhfdGltZSI6MTcwMDAwMDAwMCwidXNlcl9pZCI6"
        + "ImFkYSIsInN1YiI6ImFkYSIsImlhdCI6MTcwMDAwMDAwMCwiZXhwIjoxNzAwMDAzNjAwLCJmaXJlYmFzZSI6eyJzaWduX2lu"
        + "X3Byb3ZpZGVyIjoicGFzc3dvcmQifX0.L8BDDPweu0Kvq4BCmWZIKlYbekaAheDusO_asQCCvLTy05QjzWWKqfOGrktPykd6"
        + "fr8MvBrOfiMUqFqaVVJI8SO6lh2J0gQS2je8xDmDk1S8KbsFm-lXq4g2egPHfHX88o3iHEpPu08TUFdrp3p7NPWSShARuj_a"
        + "xl_BkjiRBtSsQ7_JEQPW1ZhhIOtEN0iVlvmLt-eVKFUKAo1Oob0eFqPvnu_ZG04t-Uw7nn6g1JZPdp-_MsdBtEPcUYCmBu_K"
        + "iWPj76Mgx_Di0WP8qEQaK6NYelCPxYg_IjmxMTaLn6wCMZwbfGZe7s4WGl0b-s4Uz1hYpEynSUe4DP_MDlRsRA"

    public static var modulus: BigUnsigned { BigUnsigned(bigEndian: Self.bytes(Self.modulusHex)) }
    public static var privateExponent: BigUnsigned { BigUnsigned(bigEndian: Self.bytes(Self.privateExponentHex)) }

    /// Bytes from hexadecimal text.
    public static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8).map { UInt8($0 <= 57 ? $0 - 48 : ($0 | 0x20) - 87) }
        let padded = digits.count % 2 == 1 ? [0] + digits : digits
        return stride(from: 0, to: padded.count, by: 2).map { padded[$0] << 4 | padded[$0 + 1] }
    }

    /// RSASSA-PKCS1-v1_5 over `message` with the private key, from an encoded message `encoded(digest)` (the
    /// standard one by default; tests pass broken ones).
    public static func sign(
        _ message: [UInt8], encoded: ((_ digest: [UInt8], _ length: Int) -> [UInt8])? = nil
    ) -> [UInt8] {
        let length = 256
        let digest = SHA256.hash(message)
        let standard: [UInt8] =
            [0x00, 0x01] + [UInt8](repeating: 0xFF, count: length - 3 - 19 - 32) + [0x00] + Self.digestInfoPrefix
            + digest
        let em = encoded?(digest, length) ?? standard
        let signature = BigUnsigned(bigEndian: em).power(Self.privateExponent, modulo: Self.modulus)
        return signature.bigEndianBytes(count: length) ?? []
    }

    /// DER of DigestInfo { sha256, NULL } up to the digest.
    public static let digestInfoPrefix: [UInt8] = [
        0x30, 0x31, 0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04,
        0x20,
    ]
}
