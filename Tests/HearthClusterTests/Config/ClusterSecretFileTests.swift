import Foundation
import HearthCluster
import HearthCore
import HearthNet
import HearthTestKit
import Testing

/// The cluster file names the cluster secret and the administrators' secrets; the cluster secret is read one key a
/// line and refused, with how to make one, when it is missing, empty or short enough to guess.
@Suite struct ClusterSecretFileTests {
    /// `secretFile` and `databaseSecretFile` are read, written back, and refused when empty.
    @Test func theFileNamesBothSecrets() throws {
        let text = """
            {"nodes": [{"id": "n1", "host": "127.0.0.1", "httpPort": 9001, "peerPort": 9101}], "replicationFactor": 1,
             "secretFile": "/etc/hearth/cluster.secret", "databaseSecretFile": "admin.secret"}
            """
        let configuration = try ClusterConfiguration(json: text)
        #expect(configuration.secretFile == "/etc/hearth/cluster.secret")
        #expect(configuration.databaseSecretFile == "admin.secret")
        #expect(try ClusterConfiguration(json: configuration.json.jsonBytes()) == configuration)
        do {
            _ = try ClusterConfiguration(json: text.replacingOccurrences(of: "admin.secret", with: ""))
            Issue.record("an empty databaseSecretFile was accepted")
        } catch {
            #expect(error.field == "databaseSecretFile")
        }
    }

    /// Each line is a key (spaces and blank lines ignored), the first one signing.
    @Test func readsOneKeyALine() throws {
        let directory = try TemporaryDirectory("cluster-secret")
        defer { directory.remove() }
        let path = directory.child("cluster.secret")
        let first = String(repeating: "a", count: 44)
        let second = String(repeating: "b", count: 32)
        try "  \(first)  \n\n\(second)\r\n".write(toFile: path, atomically: true, encoding: .utf8)
        let secret = try ClusterConfiguration.clusterSecret(fromFile: path, what: "secretFile")
        #expect(secret.keys == [Array(first.utf8), Array(second.utf8)])
    }

    /// A missing file, an empty one, and one with a short key are refused, each saying how to make a good one.
    @Test func refusesMissingEmptyOrShortSecrets() throws {
        let directory = try TemporaryDirectory("cluster-secret")
        defer { directory.remove() }
        let cases: [(String?, ClusterConfigurationError.Code)] = [
            (nil, .unreadable), ("\n \n", .weakSecret), ("short\n", .weakSecret),
            (String(repeating: "x", count: 40) + "\n" + "short", .weakSecret),
        ]
        for (index, (contents, code)) in cases.enumerated() {
            let path = directory.child("secret-\(index)")
            if let contents { try contents.write(toFile: path, atomically: true, encoding: .utf8) }
            do {
                _ = try ClusterConfiguration.clusterSecret(fromFile: path, what: "secretFile")
                Issue.record("case \(index) was accepted")
            } catch {
                #expect(error.code == code, "case \(index)")
                #expect(error.message.contains("head -c 32 /dev/urandom | base64"), "case \(index)")
            }
        }
    }
}
