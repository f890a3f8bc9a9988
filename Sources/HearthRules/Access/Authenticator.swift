import HearthCore

/// Turns the credential a client presents into who it is, as Firebase does: no credential is anonymous; a database
/// secret, or a token it signed with `admin: true`, is an administrator; a token signed with a database secret
/// (HS256, the legacy token generator's) is the user its claims name, and so is a Firebase Auth ID token (RS256)
/// when the node has the keys and project id to check it; the emulator's `owner` and its unsigned (`alg: none`)
/// tokens only when this node is told to accept them. Nothing about a secret ever appears in an error.
public struct Authenticator: Sendable {
    /// The database secrets: each one is an administrator's credential and a key for HS256 tokens.
    public var databaseSecrets: [String]
    /// Whether the emulator's `owner` credential is an administrator (the firebase-admin SDKs send it to the
    /// emulator).
    public var acceptsOwnerCredential: Bool
    /// Whether unsigned (`alg: none`) tokens, as the Firebase Auth emulator issues them, are believed.
    public var allowsUnsignedTokens: Bool
    /// Checks Firebase Auth ID tokens, when the node was given the project's id and the signing keys.
    public var idTokens: IDTokenVerifier?

    public init(
        databaseSecrets: [String] = [], acceptsOwnerCredential: Bool = false, allowsUnsignedTokens: Bool = false,
        idTokens: IDTokenVerifier? = nil
    ) {
        self.databaseSecrets = databaseSecrets
        self.acceptsOwnerCredential = acceptsOwnerCredential
        self.allowsUnsignedTokens = allowsUnsignedTokens
        self.idTokens = idTokens
    }

    /// Who presents `credential`, and until when (seconds since the Unix epoch) that holds.
    /// - Parameter now: seconds since the Unix epoch.
    /// - Throws: `TokenError`: `invalid_token` for a credential that is no token this node can verify,
    ///   `expired_token` for one past its `exp`.
    public func authenticate(_ credential: String?, now: Double) throws(TokenError) -> Authentication {
        guard let credential, !credential.isEmpty else { return Authentication(identity: .anonymous, expires: nil) }
        if self.acceptsOwnerCredential, credential == "owner" {
            return Authentication(identity: .admin, expires: nil)
        }
        let bytes = Array(credential.utf8)
        if self.databaseSecrets.contains(where: { HMACSHA256.constantTimeEqual(Array($0.utf8), bytes) }) {
            return Authentication(identity: .admin, expires: nil)
        }
        let token = try JSONWebToken(credential)
        let expires = token.claims["exp"].flatMap(TokenVerifier.seconds).map { min($0, Authentication.latestExpiry) }
        switch token.algorithm {
        case "HS256":
            guard !self.databaseSecrets.isEmpty else {
                throw TokenError(.invalidToken, "The token is signed with a database secret, but this node has none.")
            }
            var failure = TokenError(.invalidToken, "The token's signature does not match a database secret.")
            for secret in self.databaseSecrets {
                do {
                    let auth = try TokenVerifier(secret: secret).verify(token, now: now)
                    let isAdmin = token.claims["admin"] == .bool(true)
                    return Authentication(identity: isAdmin ? .admin : .user(auth), expires: expires)
                } catch  where error.code == .expiredToken {
                    throw error
                } catch {
                    failure = error
                }
            }
            throw failure
        case "RS256":
            guard let idTokens = self.idTokens else {
                throw TokenError(
                    .invalidToken,
                    "Firebase Auth ID tokens are not accepted: start the node with --project-id and --auth-keys.")
            }
            return Authentication(identity: .user(try idTokens.verify(token, now: now)), expires: expires)
        case "none":
            guard self.allowsUnsignedTokens else {
                throw TokenError(
                    .invalidToken, "The token is unsigned; start the node with --allow-unsigned-tokens to accept them.")
            }
            // As the emulator does: an unsigned token proves nothing, so its times prove nothing either, and the
            // SDKs' mock tokens are issued at 0 and expire at 3600 (firebase-js-sdk's createMockUserToken).
            return Authentication(identity: .user(try Self.idTokenAuth(token.claims)), expires: nil)
        case let algorithm:
            throw TokenError(
                .invalidToken, "Tokens signed with \(algorithm ?? "no algorithm") are not accepted by this node.")
        }
    }

    /// `auth` for a Firebase Auth ID token: `uid` (its `sub`), `provider` (`firebase.sign_in_provider`) and
    /// `token` (every claim).
    static func idTokenAuth(_ claims: [JSONKey: JSONValue]) throws(TokenError) -> RuleValue {
        guard let uid = claims["sub"]?.stringValue ?? claims["user_id"]?.stringValue, !uid.isEmpty else {
            throw TokenError(.invalidToken, "The token names no user: it has no sub claim.")
        }
        var auth: [JSONKey: RuleValue] = [
            "uid": .string(uid), "token": .object(claims.mapValues(RuleValue.init(json:))),
        ]
        if case .object(let firebase)? = claims["firebase"], let provider = firebase["sign_in_provider"]?.stringValue {
            auth["provider"] = .string(provider)
        }
        return .object(auth)
    }
}

/// Who a credential belongs to, and when that stops being true (a token's `exp`, seconds since the Unix epoch).
public struct Authentication: Sendable, Equatable {
    /// The latest `expires` a credential is given, the last second of the year 9999: a token's `exp` past it (up to
    /// 1e308) is held to it, so the session's expiry timer and the whole seconds a client is told stay representable.
    public static let latestExpiry: Double = 253_402_300_799

    public var identity: AuthIdentity
    public var expires: Double?

    public init(identity: AuthIdentity, expires: Double?) {
        self.identity = identity
        self.expires = expires
    }
}
