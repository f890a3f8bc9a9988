import Foundation
import HearthNode
import HearthRules
import HearthServer
import HearthTestKit
import Testing

/// Firebase's documented rules examples, table-driven over REST: each example's rules are installed on a fresh
/// node, its data written by an administrator, and its requests made in order as anonymous clients, Firebase Auth
/// users (ID tokens), legacy-token users and the administrator. An allowed request answers 200; a denied one 401
/// with Firebase's body, and a denied write leaves the whole tree as it was.
@Suite struct RulesExamplesTests {
    static let secret = "r8Vq2Lm5Xz9Tk1Wd4Hs7Nc3Bf6Jp0Gy"

    @Test(arguments: RulesExample.documented)
    func answersAsFirebaseDocumentsIt(example: RulesExample) async throws {
        try await TestNode.with(configure: { configuration in
            configuration.databaseSecrets = [Self.secret]
            configuration.idTokens = try? IDTokenVerifier(
                projectID: "hearth-test", keys: IDTokenVerifier.keys(from: TestKeys.certificatesJSON))
        }) { node in
            let admin = "auth=\(Self.secret)"
            let rules = try await node.request("PUT", "/.settings/rules.json?\(admin)", body: example.rules)
            try #require(rules.status == 200, "the rules: \(rules.text)")
            let seeded = try await node.request("PUT", "/.json?\(admin)", body: example.data)
            try #require(seeded.status == 200, "the data: \(seeded.text)")
            for (number, step) in example.steps.enumerated() {
                let before = try await node.request("GET", "/.json?format=export&\(admin)").text
                let response = try await node.request(
                    step.request.method, Self.target(step.request, credential: Self.credential(step.who)),
                    body: step.request.body)
                let place = "step \(number + 1) of \(example.name): \(step.request)"
                if step.isAllowed {
                    #expect(response.status == 200, "\(place) was denied: \(response.text)")
                } else {
                    #expect(response.status == 401, "\(place) was allowed")
                    #expect(response.text == #"{"error":"Permission denied"}"#, "\(place)")
                    let after = try await node.request("GET", "/.json?format=export&\(admin)").text
                    #expect(after == before, "\(place) was denied but changed the data")
                }
            }
        }
    }

    /// The URL parameter carrying `who`'s credential; nil for an anonymous request.
    private static func credential(_ who: RulesExample.Who) -> String? {
        let now = Int(Date().timeIntervalSince1970) - 5
        switch who {
        case .anonymous: return nil
        case .admin: return Self.secret
        case .user(let uid, let claims):
            let standard = TestTokens.idTokenClaims(uid, iat: now)
            let all = claims.isEmpty ? standard : "\(standard.dropLast()), \(claims)}"
            return TestTokens.rs256(all)
        case .legacy(let uid):
            return TestTokens.hs256(#"{"v": 0, "iat": \#(now), "d": {"uid": "\#(uid)"}}"#, secret: Self.secret)
        }
    }

    private static func target(_ request: RulesExample.Request, credential: String?) -> String {
        var parameters: [String] = []
        if case .read(_, let query) = request, !query.isEmpty {
            parameters.append(query.replacingOccurrences(of: "\"", with: "%22"))
        }
        if let credential { parameters.append("auth=\(credential)") }
        let json = request.path == "/" ? "/.json" : request.path + ".json"
        return parameters.isEmpty ? json : "\(json)?\(parameters.joined(separator: "&"))"
    }
}

extension RulesExample.Request: CustomStringConvertible {
    var method: String {
        switch self {
        case .read: "GET"
        case .set: "PUT"
        case .update: "PATCH"
        case .remove: "DELETE"
        }
    }

    var path: String {
        switch self {
        case .read(let path, _), .set(let path, _), .update(let path, _), .remove(let path): path
        }
    }

    var body: String? {
        switch self {
        case .set(_, let json), .update(_, let json): json
        case .read, .remove: nil
        }
    }

    var description: String {
        switch self {
        case .read(let path, let query): "read \(path)\(query.isEmpty ? "" : "?\(query)")"
        case .set(let path, let json): "set \(path) \(json)"
        case .update(let path, let json): "update \(path) \(json)"
        case .remove(let path): "remove \(path)"
        }
    }
}
