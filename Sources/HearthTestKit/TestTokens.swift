import HearthCore

/// JSON Web Tokens for tests, made as Firebase's token makers make them: HS256 over a database secret (the legacy
/// token generator) and unsigned (`alg: none`, the Auth emulator's).
public enum TestTokens {
    /// A token over `claims` (JSON text) signed with `secret`; `alg` names another algorithm in the header while
    /// still signing with HMAC-SHA256 (for algorithm-confusion tests).
    public static func hs256(_ claims: String, secret: String, alg: String = "HS256") -> String {
        let header = Self.base64URL(Array(#"{"alg":"\#(alg)","typ":"JWT"}"#.utf8))
        let payload = Self.base64URL(Array(claims.utf8))
        let signature = HMACSHA256.authenticationCode(for: Array("\(header).\(payload)".utf8), key: Array(secret.utf8))
        return "\(header).\(payload).\(Self.base64URL(signature))"
    }

    /// An unsigned token over `claims`, with the empty signature the Auth emulator gives it.
    public static func unsigned(_ claims: String) -> String {
        "\(Self.base64URL(Array(#"{"alg":"none","typ":"JWT"}"#.utf8))).\(Self.base64URL(Array(claims.utf8)))."
    }

    /// Base64url without padding (RFC 7515 §2).
    public static func base64URL(_ bytes: [UInt8]) -> String {
        String(Base64.encode(bytes).compactMap { $0 == "=" ? nil : ($0 == "+" ? "-" : ($0 == "/" ? "_" : $0)) })
    }
}
