import Foundation
import HearthTestKit
import Testing

/// A cluster member does not start without the cluster secret: `hearth serve` exits at once saying what is wrong
/// and how to make one, whether the file is not named, missing, or too short, and `--join` without one is refused.
@Suite struct ClusterSecretProcessTests {
    private func serve(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await ProcessCluster.hearth(["serve"] + arguments)
    }

    @Test(.timeLimit(.minutes(1))) func aMemberWithoutAGoodSecretDoesNotStart() async throws {
        let directory = try TemporaryDirectory("cluster-secret")
        defer { directory.remove() }
        let ports = try FreePorts.take(4)
        let nodes = #"[{"id": "n1", "host": "127.0.0.1", "httpPort": \#(ports[0]), "peerPort": \#(ports[1])}]"#
        let short = directory.child("short.secret")
        try "too short\n".write(toFile: short, atomically: true, encoding: .utf8)
        let cases: [(secretFile: String?, says: String)] = [
            (nil, "none is named"), (directory.child("missing.secret"), "cannot be read"),
            (short, "shorter than 32 bytes"),
        ]
        for (index, item) in cases.enumerated() {
            let path = directory.child("cluster-\(index).json")
            let secret = item.secretFile.map { #", "secretFile": "\#($0)""# } ?? ""
            try #"{"nodes": \#(nodes), "replicationFactor": 1\#(secret)}"#.write(
                toFile: path, atomically: true, encoding: .utf8)
            let run = try await self.serve(["--config", path, "--node", "n1", "--data", directory.child("n1-\(index)")])
            #expect(run.status != 0, "case \(index)")
            #expect(run.output.contains(item.says), "case \(index): \(run.output)")
            #expect(run.output.contains("head -c 32 /dev/urandom | base64"), "case \(index)")
        }
        let join = try await self.serve([
            "--join", "127.0.0.1:\(ports[1])", "--node", "n2", "--port", "\(ports[2])", "--peer-port", "\(ports[3])",
            "--data", directory.child("n2"),
        ])
        #expect(join.status == 2)
        #expect(join.output.contains("--join needs --cluster-secret-file"), "\(join.output)")
    }
}
