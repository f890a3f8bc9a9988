import HearthCore
import HearthTestKit
import Testing

@testable import HearthRules

/// HS256 tokens: RFC 7515's example, tampering, algorithm confusion, times, and the `auth` rules see.
@Suite struct TokenVerifierTests {
    /// RFC 7515 appendix A.1: an HS256 JWS and its key.
    private static let rfcToken =
        "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFt"
        + "cGxlLmNvbS9pc19yb290Ijp0cnVlfQ.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    private static let rfcKey =
        "AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow"

    @Test func rfc7515Example() throws {
        let key = try #require(Base64.decodeURL(Self.rfcKey))
        let token = try JSONWebToken(Self.rfcToken)
        #expect(token.claims["iss"] == .string("joe"))
        let auth = try TokenVerifier(key: key).verify(token, now: 1_300_819_000)
        guard case .object(let members) = auth, case .object(let claims)? = members["token"] else {
            Issue.record("no token claims in \(auth)")
            return
        }
        #expect(claims["http://example.com/is_root"] == .bool(true))
        #expect(throws: TokenError.self) { try TokenVerifier(key: key).verify(token, now: 1_300_819_380 + 61) }
    }

    @Test func legacyTokensGiveTheirDataAsAuth() throws {
        let text = TestTokens.hs256(#"{"v":0,"iat":1700000000,"d":{"uid":"ada","admin":true}}"#, secret: "s3cret")
        let auth = try TokenVerifier(secret: "s3cret").verify(try JSONWebToken(text), now: 1_700_000_100)
        guard case .object(let members) = auth else {
            Issue.record("auth is \(auth)")
            return
        }
        #expect(members["uid"] == .string("ada"))
        #expect(members["admin"] == .bool(true))
    }

    @Test func forgedExpiredAndConfusedTokensAreRefused() throws {
        let verifier = TokenVerifier(secret: "s3cret")
        let other = TestTokens.hs256(#"{"d":{"uid":"eve"}}"#, secret: "guess")
        #expect(throws: TokenError.self) { try verifier.verify(try JSONWebToken(other), now: 0) }
        let none = TestTokens.hs256(#"{"d":{"uid":"eve"}}"#, secret: "s3cret", alg: "none")
        #expect(throws: TokenError.self) { try verifier.verify(try JSONWebToken(none), now: 0) }
        let expired = TestTokens.hs256(#"{"exp":1000,"d":{"uid":"ada"}}"#, secret: "s3cret")
        do {
            _ = try verifier.verify(try JSONWebToken(expired), now: 2000)
            Issue.record("an expired token was accepted")
        } catch {
            #expect(error.code == .expiredToken)
            #expect(!error.message.contains("s3cret"))
        }
        let future = TestTokens.hs256(#"{"iat":99999999999,"d":{"uid":"ada"}}"#, secret: "s3cret")
        #expect(throws: TokenError.self) { try verifier.verify(try JSONWebToken(future), now: 0) }
        let valid = TestTokens.hs256(#"{"d":{"uid":"ada"}}"#, secret: "s3cret")
        var tampered = Array(valid)
        tampered[tampered.count - 2] = tampered[tampered.count - 2] == "A" ? "B" : "A"
        #expect(throws: TokenError.self) { try verifier.verify(try JSONWebToken(String(tampered)), now: 0) }
        for malformed in ["", "a.b", "a.b.c.d", "!!.e30.", "e30.e30.+/=="] {
            #expect(throws: TokenError.self, "\(malformed)") { try JSONWebToken(malformed) }
        }
    }

    @Test func base64URLDecodingIsStrict() {
        #expect(Base64.decodeURL("e30") == Array("{}".utf8))
        #expect(Base64.decodeURL("") == [])
        #expect(Base64.decodeURL("e30=") == nil)
        #expect(Base64.decodeURL("a+b/") == nil)
        #expect(Base64.decodeURL("abcde") == nil)
        #expect(Base64.decodeURL("_-8") == [0xFF, 0xEF])
    }
}
