import HearthCore

/// Checks HS256 tokens (Firebase's legacy token generator, signed with a database secret) and turns them into the
/// `auth` that rules see.
///
/// The signature is compared in constant time; a token whose header names another algorithm is refused (no `alg`
/// confusion: a key for HS256 never verifies an `RS256` or `none` token). Times are checked with a minute of leeway
/// for clock skew.
public struct TokenVerifier: Sendable {
    private let secret: [UInt8]
    /// Allowed difference between the token's clock and ours, in seconds.
    public var leeway: Double = 60

    /// A verifier for tokens signed with the database secret `secret` (its UTF-8 bytes are the HMAC key).
    public init(secret: String) {
        self.init(key: Array(secret.utf8))
    }

    /// A verifier for tokens signed with the HMAC key `key`.
    public init(key: [UInt8]) {
        self.secret = key
    }

    /// The `auth` of a valid token: the legacy generator's `d` object (with its `uid`), and `token` holding every
    /// claim.
    /// - Parameter now: seconds since the Unix epoch.
    /// - Throws: `TokenError`: `invalid_token` for a bad shape, algorithm, signature or claim, `expired_token` past
    ///   `exp`.
    public func verify(_ token: JSONWebToken, now: Double) throws(TokenError) -> RuleValue {
        guard token.algorithm == "HS256" else {
            throw TokenError(.invalidToken, "The token is signed with \(token.algorithm ?? "no algorithm"), not HS256.")
        }
        let expected = HMACSHA256.authenticationCode(for: token.signingInput, key: self.secret)
        guard HMACSHA256.constantTimeEqual(expected, token.signature) else {
            throw TokenError(.invalidToken, "The token's signature does not match the database secret.")
        }
        try Self.checkTimes(token.claims, now: now, leeway: self.leeway)
        var auth: [JSONKey: RuleValue] = [:]
        if case .object(let data)? = token.claims["d"] {
            auth = data.mapValues(RuleValue.init(json:))
        }
        if auth["uid"] == nil, let subject = token.claims["sub"]?.stringValue { auth["uid"] = .string(subject) }
        auth["token"] = .object(token.claims.mapValues(RuleValue.init(json:)))
        return .object(auth)
    }

    /// Checks `exp` (not passed), `iat` and `nbf` (not in the future), each with `leeway` seconds for clock skew.
    static func checkTimes(_ claims: [JSONKey: JSONValue], now: Double, leeway: Double) throws(TokenError) {
        if let expiry = claims["exp"] {
            guard let seconds = Self.seconds(expiry) else { throw TokenError(.invalidToken, "exp is not a number.") }
            guard now < seconds + leeway else { throw TokenError(.expiredToken, "The token expired.") }
        }
        for claim in ["iat", "nbf"] {
            guard let value = claims[JSONKey(claim)] else { continue }
            guard let seconds = Self.seconds(value) else {
                throw TokenError(.invalidToken, "\(claim) is not a number.")
            }
            guard seconds <= now + leeway else {
                throw TokenError(.invalidToken, "The token's \(claim) is in the future; check the clocks.")
            }
        }
    }

    static func seconds(_ value: JSONValue) -> Double? {
        switch value {
        case .int(let number): Double(number)
        case .double(let number): number
        default: nil
        }
    }
}
