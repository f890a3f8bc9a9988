import HearthCore

extension TestTokens {
    /// An ID token over `claims` signed (RS256) with `TestKeys`' private key under key id `kid`.
    public static func rs256(_ claims: String, kid: String = "k1") -> String {
        let header = Self.base64URL(Array(#"{"alg":"RS256","kid":"\#(kid)","typ":"JWT"}"#.utf8))
        let payload = Self.base64URL(Array(claims.utf8))
        return "\(header).\(payload).\(Self.base64URL(TestKeys.sign(Array("\(header).\(payload)".utf8))))"
    }

    /// Firebase Auth ID token claims for `uid` in project `hearth-test`, issued at `iat` and valid for an hour.
    public static func idTokenClaims(_ uid: String, iat: Int, project: String = "hearth-test") -> String {
        #"{"iss":"https://securetoken.google.com/\#(project)","aud":"\#(project)","auth_time":\#(iat),"#
            + #""user_id":"\#(uid)","sub":"\#(uid)","iat":\#(iat),"exp":\#(iat + 3600),"#
            + #""firebase":{"sign_in_provider":"password"}}"#
    }
}
