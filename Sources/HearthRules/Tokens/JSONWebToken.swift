public import HearthCore

/// A JSON Web Token (RFC 7519) as clients present it: `header.payload.signature`, each part base64url. Decoding
/// checks only its shape; `TokenVerifier` checks its signature and claims.
public struct JSONWebToken: Sendable {
    public let header: [JSONKey: JSONValue]
    public let claims: [JSONKey: JSONValue]
    /// `header.payload` as sent: what the signature covers.
    let signingInput: [UInt8]
    let signature: [UInt8]

    /// The signing algorithm the header names (`RS256`, `HS256`, `none`).
    public var algorithm: String? { self.header["alg"]?.stringValue }

    /// - Throws: `TokenError` (`invalid_token`) for anything that is not three base64url parts of JSON objects.
    public init(_ text: String) throws(TokenError) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw TokenError(.invalidToken, "A token has three parts separated by dots; this one has \(parts.count).")
        }
        self.header = try Self.object(parts[0], part: "header")
        self.claims = try Self.object(parts[1], part: "payload")
        guard let signature = Base64.decodeURL(String(parts[2])) else {
            throw TokenError(.invalidToken, "The token's signature is not base64url.")
        }
        self.signature = signature
        self.signingInput = Array("\(parts[0]).\(parts[1])".utf8)
    }

    private static func object(_ part: Substring, part name: String) throws(TokenError) -> [JSONKey: JSONValue] {
        guard let bytes = Base64.decodeURL(String(part)), case .object(let members)? = try? JSONReader.parseValue(bytes)
        else {
            throw TokenError(.invalidToken, "The token's \(name) is not a base64url JSON object.")
        }
        return members
    }
}

/// A token refused, with Firebase's status (`invalid_token`, `expired_token`) and a message that says why without
/// showing any secret.
public struct TokenError: Error, Sendable, Hashable, CustomStringConvertible {
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        public let status: String
        public var description: String { self.status }
        public static let invalidToken = Code(status: "invalid_token")
        public static let expiredToken = Code(status: "expired_token")
    }

    public let code: Code
    public let message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(self.code): \(self.message)" }
}
