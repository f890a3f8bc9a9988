import Foundation
import HearthCore
import HearthTestKit
import Testing

@testable import HearthRules

/// Firebase Auth ID tokens: OpenSSL's token, keys as Google publishes them, and every claim Firebase says to check.
@Suite struct IDTokenVerifierTests {
    private static let now = 1_700_000_100.0

    private static func verifier() throws -> IDTokenVerifier {
        IDTokenVerifier(projectID: "hearth-test", keys: try IDTokenVerifier.keys(from: TestKeys.certificatesJSON))
    }

    @Test func opensslsTokenNamesItsUser() throws {
        let auth = try Self.verifier().verify(try JSONWebToken(TestKeys.opensslIDToken), now: Self.now)
        guard case .object(let members) = auth else {
            Issue.record("auth is an object")
            return
        }
        #expect(members["uid"] == .string("ada") && members["provider"] == .string("password"))
    }

    @Test func aJWKSetServesAsWell() throws {
        let n = TestTokens.base64URL(TestKeys.bytes(TestKeys.modulusHex))
        let keys = try IDTokenVerifier.keys(
            from: #"{"keys": [{"kty": "RSA", "kid": "k1", "alg": "RS256", "n": "\#(n)", "e": "AQAB"}]}"#)
        let verifier = IDTokenVerifier(projectID: "hearth-test", keys: keys)
        #expect(throws: Never.self) { try verifier.verify(try JSONWebToken(TestKeys.opensslIDToken), now: Self.now) }
        #expect(throws: TokenKeysError.self) {
            try IDTokenVerifier.keys(from: #"{"keys": [{"kty": "EC", "kid": "x"}]}"#)
        }
        #expect(throws: TokenKeysError.self) { try IDTokenVerifier.keys(from: #"{"k1": "not a certificate"}"#) }
        #expect(throws: TokenKeysError.self) { try IDTokenVerifier.keys(from: "[]") }
    }

    @Test func everyClaimIsChecked() throws {
        let verifier = try Self.verifier()
        let iat = Int(Self.now) - 100
        let good = TestTokens.idTokenClaims("ada", iat: iat)
        #expect(throws: Never.self) { try verifier.verify(try JSONWebToken(TestTokens.rs256(good)), now: Self.now) }
        let cases: [(String, String, TokenError.Code)] = [
            (
                "another project", TestTokens.rs256(TestTokens.idTokenClaims("ada", iat: iat, project: "other")),
                .invalidToken
            ),
            ("an unknown key id", TestTokens.rs256(good, kid: "k2"), .invalidToken),
            ("expired", TestTokens.rs256(TestTokens.idTokenClaims("ada", iat: iat - 7_300)), .expiredToken),
            (
                "issued in the future", TestTokens.rs256(TestTokens.idTokenClaims("ada", iat: iat + 7_200)),
                .invalidToken
            ),
            ("no user", TestTokens.rs256(TestTokens.idTokenClaims("", iat: iat)), .invalidToken),
            (
                "wrong issuer",
                TestTokens.rs256(good.replacingOccurrences(of: "securetoken.google.com", with: "evil.example")),
                .invalidToken
            ),
            ("HS256 signed with the modulus", TestTokens.hs256(good, secret: TestKeys.modulusHex), .invalidToken),
            ("unsigned", TestTokens.unsigned(good), .invalidToken),
        ]
        for (name, token, code) in cases {
            do {
                _ = try verifier.verify(try JSONWebToken(token), now: Self.now)
                Issue.record("\(name) was accepted")
            } catch {
                #expect(error.code == code, "\(name): \(error)")
            }
        }
    }

    @Test func theAuthenticatorUsesIDTokensWhenGivenKeys() throws {
        let authenticator = Authenticator(idTokens: try Self.verifier())
        let authentication = try authenticator.authenticate(TestKeys.opensslIDToken, now: Self.now)
        #expect(authentication.expires == 1_700_003_600)
        #expect(throws: TokenError.self) { try Authenticator().authenticate(TestKeys.opensslIDToken, now: Self.now) }
    }
}
