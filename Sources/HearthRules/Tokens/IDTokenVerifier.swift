public import HearthCore

/// Checks Firebase Auth ID tokens as Firebase's documentation prescribes: an `RS256` signature by the key its `kid`
/// names, `aud` the project's id, `iss` `https://securetoken.google.com/<project>`, `exp` not passed, `iat` and
/// `auth_time` not in the future, and a non-empty `sub` (the user's id). Times have a minute of leeway for clocks.
public struct IDTokenVerifier: Sendable {
    public let projectID: String
    /// The signing keys by key id (replaced when the node's key file changes: Google rotates them).
    public var keys: [String: RSAPublicKey]
    public var leeway: Double = 60

    public init(projectID: String, keys: [String: RSAPublicKey]) {
        self.projectID = projectID
        self.keys = keys
    }

    /// The token's `auth`: `uid` (its `sub`), `provider` and `token` (every claim).
    /// - Throws: `TokenError`: `expired_token` past `exp`, `invalid_token` for anything else wrong.
    public func verify(_ token: JSONWebToken, now: Double) throws(TokenError) -> RuleValue {
        guard token.algorithm == "RS256" else {
            throw TokenError(.invalidToken, "The token is signed with \(token.algorithm ?? "no algorithm"), not RS256.")
        }
        guard let kid = token.header["kid"]?.stringValue, let key = self.keys[kid] else {
            throw TokenError(.invalidToken, "The token's key id is not one of this node's keys; refresh the key file.")
        }
        guard key.verifiesSHA256(signature: token.signature, of: token.signingInput) else {
            throw TokenError(.invalidToken, "The token's signature does not match its key.")
        }
        let claims = token.claims
        guard claims["aud"]?.stringValue == self.projectID else {
            throw TokenError(.invalidToken, "The token is for another project (aud), not \(self.projectID).")
        }
        guard claims["iss"]?.stringValue == "https://securetoken.google.com/\(self.projectID)" else {
            throw TokenError(.invalidToken, "The token was not issued by Firebase Auth for \(self.projectID) (iss).")
        }
        guard claims["exp"] != nil, claims["iat"] != nil else {
            throw TokenError(.invalidToken, "An ID token has exp and iat.")
        }
        try TokenVerifier.checkTimes(claims, now: now, leeway: self.leeway)
        if let authTime = claims["auth_time"] {
            guard let seconds = TokenVerifier.seconds(authTime), seconds <= now + self.leeway else {
                throw TokenError(.invalidToken, "The token's auth_time is not a time in the past.")
            }
        }
        guard let subject = claims["sub"]?.stringValue, !subject.isEmpty, subject.utf8.count <= 128 else {
            throw TokenError(.invalidToken, "The token's sub (the user id) is empty or longer than 128 bytes.")
        }
        return try Authenticator.idTokenAuth(claims)
    }
}

/// Reading the keys ID tokens are signed with, from a file in one of the forms Google publishes them in.
extension IDTokenVerifier {
    /// The keys in `text`: a JSON object of key id → PEM certificate (Google's
    /// `…/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com`), or a JWK set (`{"keys": [{"kty":
    /// "RSA", "kid", "n", "e"}, …]}`, Google's `…/service_accounts/v1/jwk/securetoken@…`).
    /// - Throws: `TokenKeysError` naming what is wrong; a file with one bad key is refused whole.
    public static func keys(from text: String) throws(TokenKeysError) -> [String: RSAPublicKey] {
        guard case .object(let members)? = try? JSONReader.parseValue(Array(text.utf8)) else {
            throw TokenKeysError("The key file is not a JSON object.")
        }
        var keys: [String: RSAPublicKey] = [:]
        if case .array(let entries)? = members["keys"] {
            for (index, entry) in entries.enumerated() {
                guard case .object(let jwk) = entry, jwk["kty"]?.stringValue == "RSA",
                    let kid = jwk["kid"]?.stringValue, let n = jwk["n"]?.stringValue.flatMap(Base64.decodeURL),
                    let e = jwk["e"]?.stringValue.flatMap(Base64.decodeURL)
                else { throw TokenKeysError("keys[\(index)] is not an RSA JWK with kid, n and e.") }
                do {
                    keys[kid] = try RSAPublicKey(
                        modulus: BigUnsigned(bigEndian: n), exponent: BigUnsigned(bigEndian: e))
                } catch {
                    throw TokenKeysError("keys[\(index)] (\(kid)): \(error.message)")
                }
            }
        } else {
            for (name, value) in members {
                let kid = name.string
                guard let pem = value.stringValue else { throw TokenKeysError("\(kid) is not a PEM certificate.") }
                keys[kid] = try Self.key(pem, kid: kid)
            }
        }
        guard !keys.isEmpty else { throw TokenKeysError("The key file holds no key.") }
        return keys
    }

    /// The public key of the first PEM block in `pem`: a certificate, a SubjectPublicKeyInfo or a PKCS#1 key.
    private static func key(_ pem: String, kid: String) throws(TokenKeysError) -> RSAPublicKey {
        do {
            guard let block = try PEM.blocks(in: pem).first else {
                throw TokenKeysError("\(kid) holds no PEM block.")
            }
            switch block.label {
            case "CERTIFICATE": return try RSAPublicKey(certificate: block.der[...])
            case "PUBLIC KEY": return try RSAPublicKey(subjectPublicKeyInfo: block.der[...])
            case "RSA PUBLIC KEY": return try RSAPublicKey(pkcs1: block.der[...])
            default: throw TokenKeysError("\(kid): a PEM \(block.label) holds no public key.")
            }
        } catch let error as DERError {
            throw TokenKeysError("\(kid): \(error.message)")
        } catch let error as TokenKeysError {
            throw error
        } catch {
            throw TokenKeysError("\(kid): \(error)")
        }
    }
}

/// A key file that cannot be used, and why.
public struct TokenKeysError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    init(_ message: String) {
        self.message = message
    }

    public var description: String { self.message }
}
