import HearthCore
import HearthTestKit
import Testing

@testable import HearthRules

/// Credentials → identities: no credential, the database secret, HS256 tokens (with `admin`), the emulator's
/// `owner` and unsigned tokens only when allowed, and everything else refused with Firebase's status.
@Suite struct AuthenticatorTests {
    private static let now = 1_800_000_000.0
    private static let secret = "0123456789abcdef0123456789abcdef01234567"

    private static func uid(_ authentication: Authentication) -> RuleValue? {
        guard case .user(.object(let auth)) = authentication.identity else { return nil }
        return auth["uid"]
    }

    @Test func noCredentialIsAnonymousAndTheSecretIsAnAdministrator() throws {
        let authenticator = Authenticator(databaseSecrets: [Self.secret])
        #expect(try authenticator.authenticate(nil, now: Self.now).identity == .anonymous)
        #expect(try authenticator.authenticate("", now: Self.now).identity == .anonymous)
        #expect(try authenticator.authenticate(Self.secret, now: Self.now).identity == .admin)
        #expect(throws: TokenError.self) { try authenticator.authenticate("owner", now: Self.now) }
        #expect(throws: TokenError.self) {
            try authenticator.authenticate(String(Self.secret.dropLast()), now: Self.now)
        }
    }

    @Test func hs256TokensNameTheirUserUntilTheyExpire() throws {
        let authenticator = Authenticator(databaseSecrets: ["old", Self.secret])
        let token = TestTokens.hs256(
            #"{"v":0,"iat":1799999000,"exp":1800003600,"d":{"uid":"ada","role":"editor"}}"#, secret: Self.secret)
        let authentication = try authenticator.authenticate(token, now: Self.now)
        #expect(Self.uid(authentication) == .string("ada"))
        #expect(authentication.expires == 1_800_003_600)
        let admin = TestTokens.hs256(#"{"v":0,"iat":1799999000,"admin":true,"d":{"uid":"root"}}"#, secret: "old")
        #expect(try authenticator.authenticate(admin, now: Self.now).identity == .admin)
        #expect(throws: TokenError(.expiredToken, "The token expired.")) {
            try authenticator.authenticate(token, now: Self.now + 7_200)
        }
        let forged = TestTokens.hs256(#"{"d":{"uid":"eve"}}"#, secret: "guess")
        #expect(throws: TokenError.self) { try authenticator.authenticate(forged, now: Self.now) }
        #expect(throws: TokenError.self) { try Authenticator().authenticate(token, now: Self.now) }
    }

    /// A token whose `exp` is as large as JSON allows authenticates until the latest expiry, a time every timer and
    /// integer can hold (such a token over the realtime `auth` action used to stop the node converting it to Int64).
    @Test func farFutureExpiriesAreHeldToTheLatestExpiry() throws {
        let authenticator = Authenticator(databaseSecrets: [Self.secret])
        for exp in ["1e308", "9223372036854775807", "1e19", "253402300800"] {
            let token = TestTokens.hs256(
                #"{"v":0,"iat":1799999000,"exp":\#(exp),"d":{"uid":"ada"}}"#, secret: Self.secret)
            let authentication = try authenticator.authenticate(token, now: Self.now)
            #expect(authentication.expires == Authentication.latestExpiry)
            #expect(Int64(exactly: try #require(authentication.expires)) != nil)
        }
    }

    @Test func emulatorCredentialsOnlyWhereAllowed() throws {
        let claims = #"{"sub":"u1","iat":1799999000,"exp":1800003600,"firebase":{"sign_in_provider":"password"}}"#
        let unsigned = TestTokens.unsigned(claims)
        #expect(throws: TokenError.self) { try Authenticator().authenticate(unsigned, now: Self.now) }
        #expect(throws: TokenError.self) { try Authenticator().authenticate("owner", now: Self.now) }
        let emulator = Authenticator(acceptsOwnerCredential: true, allowsUnsignedTokens: true)
        #expect(try emulator.authenticate("owner", now: Self.now).identity == .admin)
        let authentication = try emulator.authenticate(unsigned, now: Self.now)
        guard case .user(.object(let auth)) = authentication.identity else {
            Issue.record("an unsigned token gave \(authentication)")
            return
        }
        #expect(auth["uid"] == .string("u1") && auth["provider"] == .string("password"))
        #expect(
            auth["token"]
                == .object([
                    "sub": .string("u1"), "iat": .number(1_799_999_000),
                    "exp": .number(1_800_003_600), "firebase": .object(["sign_in_provider": .string("password")]),
                ]))
        #expect(throws: TokenError.self) {
            try emulator.authenticate(TestTokens.unsigned(#"{"iat":1}"#), now: Self.now)
        }
        // What the JS SDK's mockUserToken makes: issued at 0, "expired" since 1970; the emulator takes it, and so do we.
        let mock = TestTokens.unsigned(#"{"iat":0,"exp":3600,"auth_time":0,"sub":"ada","user_id":"ada"}"#)
        #expect(try emulator.authenticate(mock, now: Self.now).identity != .anonymous)
        #expect(try emulator.authenticate(mock, now: Self.now).expires == nil)
    }

    @Test func otherAlgorithmsAndShapesAreInvalidTokens() {
        let authenticator = Authenticator(databaseSecrets: [Self.secret], allowsUnsignedTokens: true)
        for credential in [
            "not-a-token", "a.b", "a.b.c", TestTokens.hs256(#"{"sub":"u"}"#, secret: Self.secret, alg: "RS256"),
            TestTokens.hs256(#"{"sub":"u"}"#, secret: Self.secret, alg: "HS512"),
        ] {
            do {
                _ = try authenticator.authenticate(credential, now: Self.now)
                Issue.record("\(credential) was accepted")
            } catch {
                #expect(error.code == .invalidToken, "\(credential)")
                #expect(!error.message.contains(Self.secret))
            }
        }
    }
}
