import Foundation
import HearthRules
import HearthTestKit
import Testing

@testable import HearthFrontEnds
@testable import HearthNode
@testable import HearthServer

/// The ID token key file read again as Google rotates its keys: a changed file replaces the keys, a broken one
/// leaves them, and a node takes a new key without restarting.
@Suite struct TokenKeysFileTests {
    /// The test certificate under each of `kids`, as Google's JSON lists its certificates.
    private static func certificates(_ kids: [String]) -> String {
        let pem = TestKeys.certificatePEM.split(separator: "\n").joined(separator: "\\n")
        return "{" + kids.map { #""\#($0)": "\#(pem)""# }.joined(separator: ", ") + "}"
    }

    @Test func aChangedFileGivesItsKeysAndABrokenOneIsRefusedUntilFixed() throws {
        let directory = try TemporaryDirectory("hearth-keys")
        defer { directory.remove() }
        let path = directory.child("keys.json")
        var file = TokenKeysFile(path: path)
        #expect(throws: TokenKeysFileError.self) { try file.changedKeys() }
        try Self.certificates(["k1"]).write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try file.changedKeys()?.keys.sorted() == ["k1"])
        #expect(try file.changedKeys() == nil, "an unchanged file gives nothing")
        try #"{"k2": "-----BEGIN CERTIFI"#.write(toFile: path, atomically: true, encoding: .utf8)
        let error = try #require(throws: TokenKeysFileError.self) { try file.changedKeys() }
        #expect(error.description.hasPrefix("The auth key file \(path) is refused: "), "\(error)")
        try Self.certificates(["k1", "k2"]).write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try file.changedKeys()?.keys.sorted() == ["k1", "k2"])
    }

    @Test func aRunningNodeTakesARotatedKey() async throws {
        let directory = try TemporaryDirectory("hearth-keys")
        defer { directory.remove() }
        let path = directory.child("keys.json")
        try Self.certificates(["k1"]).write(toFile: path, atomically: true, encoding: .utf8)
        try await TestNode.with(configure: { configuration in
            configuration.idTokens = try? IDTokenVerifier(
                projectID: "hearth-test", keys: IDTokenVerifier.keys(from: Self.certificates(["k1"])))
            configuration.authKeysFile = path
            configuration.authKeysRecheckSeconds = 0.05
        }) { node in
            let claims = TestTokens.idTokenClaims("ada", iat: Int(Date().timeIntervalSince1970) - 5)
            let rotated = "/ada.json?auth=" + TestTokens.rs256(claims, kid: "k2")
            #expect(try await node.request("GET", "/ada.json?auth=" + TestTokens.rs256(claims)).status == 200)
            #expect(try await node.request("GET", rotated).status == 401, "k2 is not a key yet")
            try Self.certificates(["k1", "k2"]).write(toFile: path, atomically: true, encoding: .utf8)
            #expect(
                await eventually(seconds: 10, every: 0.05) { (try? await node.request("GET", rotated))?.status == 200 })
        }
    }
}
