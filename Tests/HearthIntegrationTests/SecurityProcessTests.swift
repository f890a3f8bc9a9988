import Foundation
import HearthTestKit
import Testing

/// `hearth serve`'s security flags, as an operator uses them: rules from a file, a database secret from a file, ID
/// tokens checked against a key file, rules that outlive a restart, and a rules file with a mistake refused.
@Suite(.serialized) struct SecurityProcessTests {
    static let rules = #"{"rules": {"users": {"$uid": {".read": "auth.uid === $uid", ".write": "auth.uid === $uid"}}}}"#
    static let secret = "6fQ2pZr8Wm1xKc4Tn7Jd0Lh3Vb9Gs5Ye"

    @Test func aNodeStartedWithRulesASecretAndIDTokenKeysChecksEveryRequest() async throws {
        let directory = try TemporaryDirectory("hearth-security")
        defer { directory.remove() }
        try Self.rules.write(toFile: directory.child("database.rules.json"), atomically: true, encoding: .utf8)
        try "\(Self.secret)\n".write(toFile: directory.child("secrets"), atomically: true, encoding: .utf8)
        try TestKeys.certificatesJSON.write(toFile: directory.child("keys.json"), atomically: true, encoding: .utf8)
        let server = try await ServerProcess(arguments: [
            "--rules", directory.child("database.rules.json"), "--database-secret-file", directory.child("secrets"),
            "--project-id", "hearth-test", "--auth-keys", directory.child("keys.json"),
        ])
        let port = server.port
        let idToken = TestTokens.rs256(TestTokens.idTokenClaims("ada", iat: Int(Date().timeIntervalSince1970) - 5))
        let statuses = try await onDedicatedThread { () -> [Int] in
            let client = try HTTPTestClient(port: port)
            return [
                try client.request("PUT", "/users/ada.json", body: "1").status,
                try client.request("PUT", "/users/ada.json?auth=\(idToken)", body: "2").status,
                try client.request("GET", "/users/ada.json", headers: [("Authorization", "Bearer \(idToken)")]).status,
                try client.request("GET", "/users/bob.json?auth=\(idToken)").status,
                try client.request("GET", "/users.json?auth=\(Self.secret)").status,
                try client.request("GET", "/.settings/rules.json", headers: [("Authorization", "Bearer owner")]).status,
            ]
        }
        #expect(statuses == [401, 200, 200, 401, 200, 401], "owner is no administrator beside a database secret")
        await server.stop()
        let restarted = try await ServerProcess(dataDirectory: server.dataDirectory)
        defer { restarted.terminate() }
        let afterRestart = try await HTTPTestClient.request(port: restarted.port, "GET", "/users/ada.json").status
        #expect(afterRestart == 401, "the stored rules outlive the restart")
    }

    @Test func aRulesFileWithAMistakeStopsTheNodeWithItsLine() async throws {
        let directory = try TemporaryDirectory("hearth-security")
        defer { directory.remove() }
        try "{\n  \"rules\": {\n    \".read\": \"auth.uid ==\"\n  }\n}\n".write(
            toFile: directory.child("bad.rules.json"), atomically: true, encoding: .utf8)
        let run = try await ProcessOutput.run(
            URL(fileURLWithPath: try ServerProcess.binaryPath()),
            ["serve", "--port", "0", "--data", directory.child("data"), "--rules", directory.child("bad.rules.json")])
        #expect(run.status != 0)
        #expect(run.output.contains("Line 3"), "\(run.output)")
    }
}
