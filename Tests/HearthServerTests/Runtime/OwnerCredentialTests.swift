import HearthRules
import HearthTestKit
import Testing

@testable import HearthNode
@testable import HearthServer

/// The emulator's `owner` credential is an administrator only where the emulator's is: on a node that listens on
/// loopback alone and has no credentials of its own, unless `--owner-credential` says otherwise.
@Suite struct OwnerCredentialTests {
    /// One row of the decision: where the node listens, what it has, what the flag says, and the answer.
    struct Row: Sendable, CustomStringConvertible {
        var host: String
        var secrets = false
        var keys = false
        var member = false
        var flag: Bool?
        var accepts: Bool

        var description: String {
            "host \(self.host), secrets \(self.secrets), keys \(self.keys), member \(self.member), flag "
                + "\(self.flag.map { $0 ? "accept" : "refuse" } ?? "none")"
        }
    }

    static let table: [Row] = [
        Row(host: "127.0.0.1", accepts: true),
        Row(host: "127.4.5.6", accepts: true),
        Row(host: "::1", accepts: true),
        Row(host: "0.0.0.0", accepts: false),
        Row(host: "::", accepts: false),
        Row(host: "192.168.1.10", accepts: false),
        Row(host: "127.0.0.1", secrets: true, accepts: false),
        Row(host: "127.0.0.1", keys: true, accepts: false),
        Row(host: "127.0.0.1", member: true, accepts: false),
        Row(host: "0.0.0.0", secrets: true, keys: true, accepts: false),
        Row(host: "0.0.0.0", flag: true, accepts: true),
        Row(host: "0.0.0.0", secrets: true, keys: true, member: true, flag: true, accepts: true),
        Row(host: "127.0.0.1", flag: false, accepts: false),
    ]

    /// Loopback without secrets or keys accepts `owner` (rules or none); anything beyond loopback, a secret, ID-token
    /// keys or cluster membership refuses it; the flag overrides either way.
    @Test(arguments: Self.table)
    func theDefaultFollowsWhereTheNodeListensAndWhatItHas(_ row: Row) {
        var configuration = NodeConfiguration()
        configuration.host = row.host
        if row.secrets { configuration.databaseSecrets = ["s3cret-value"] }
        if row.keys { configuration.idTokens = IDTokenVerifier(projectID: "p", keys: [:]) }
        if row.member { configuration.joinThrough = "127.0.0.1:7001" }
        configuration.acceptsOwnerCredential = row.flag
        #expect(configuration.acceptsOwner == row.accepts)
        #expect(configuration.authenticator.acceptsOwnerCredential == row.accepts)
    }

    /// Loopback is 127.0.0.0/8, `::1` and IPv4-mapped 127.0.0.0/8; wildcard and other addresses are not.
    @Test func loopbackAddressesAreRecognised() {
        for host in ["127.0.0.1", "127.255.0.9", "::1", "::ffff:127.0.0.1"] {
            #expect(NodeConfiguration.isLoopback(host), "\(host)")
        }
        for host in ["0.0.0.0", "::", "10.0.0.1", "::ffff:10.0.0.1", "::2", "localhost", "128.0.0.1", ""] {
            #expect(!NodeConfiguration.isLoopback(host), "\(host)")
        }
    }

    /// A loopback node that checks ID tokens answers `Bearer owner` with 401, and one without keeps it working.
    @Test func aNodeWithIDTokenKeysRefusesOwnerOverREST() async throws {
        try await TestNode.with(configure: { $0.idTokens = IDTokenVerifier(projectID: "p", keys: [:]) }) { node in
            let refused = try await node.request(
                "GET", "/.settings/rules.json", headers: [("Authorization", "Bearer owner")])
            #expect(refused.status == 401, "\(refused.text)")
            let write = try await node.request(
                "PUT", "/x.json", body: "1", headers: [("Authorization", "Bearer owner")])
            #expect(write.status == 401, "\(write.text)")
        }
        try await TestNode.with { node in
            let accepted = try await node.request(
                "GET", "/.settings/rules.json", headers: [("Authorization", "Bearer owner")])
            #expect(accepted.status == 200, "\(accepted.text)")
        }
    }
}
