import Foundation
import HearthSystem
import HearthTestKit
import Synchronization
import Testing

/// Spawned `hearth serve` processes: what only a real process can prove.
@Suite(.serialized) struct CrashRecoveryProcessTests {
    /// Writers record every write the server acknowledged; the process is SIGKILLed mid-load; after a restart on the
    /// same data directory every acknowledged write must be there with its value.
    @Test func everyAcknowledgedWriteSurvivesSIGKILL() async throws {
        let server = try await ServerProcess()
        let acknowledged = AcknowledgedWrites()
        // Killed 1.5 s into the load, and not before it has 100 writes acknowledged (a loaded machine is slower).
        await server.killDuringLoad(writers: 8, afterMilliseconds: 1500, once: { acknowledged.all.count > 100 }) {
            writer, sequence, client in
            let key = "w\(writer)/k\(sequence)"
            guard let response = try? client.request("PUT", "/load/\(key).json", body: "\(sequence)"),
                response.status == 200
            else { return false }
            acknowledged.record(key, sequence)
            return true
        }
        let expected = acknowledged.all
        #expect(expected.count > 100, "the load should have acknowledged a meaningful number of writes")

        let restarted = try await ServerProcess(dataDirectory: server.dataDirectory)
        defer { restarted.terminate() }
        let body = try await HTTPTestClient.request(port: restarted.port, "GET", "/load.json").text
        let stored = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: [String: Int]] ?? [:]
        var missing: [String] = []
        for (key, value) in expected {
            let parts = key.split(separator: "/").map(String.init)
            if stored[parts[0]]?[parts[1]] != value { missing.append(key) }
        }
        #expect(missing.isEmpty, "acknowledged but lost after SIGKILL: \(missing.prefix(10))")
    }

    @Test func sigtermShutsDownGracefullyAndKeepsData() async throws {
        let server = try await ServerProcess()
        #expect(
            try await HTTPTestClient.request(port: server.port, "PUT", "/kept.json", body: #"{"v":1}"#).status == 200)
        await server.stop(signal: SIGTERM)
        #expect(server.process.termination == .exited(0))
        let restarted = try await ServerProcess(dataDirectory: server.dataDirectory)
        defer { restarted.terminate() }
        #expect(try await HTTPTestClient.request(port: restarted.port, "GET", "/kept.json").text == #"{"v":1}"#)
    }
}

/// Writes the server acknowledged, shared by the writer tasks.
private final class AcknowledgedWrites: Sendable {
    private let state = Mutex<[String: Int]>([:])
    func record(_ key: String, _ value: Int) { self.state.withLock { $0[key] = value } }
    var all: [String: Int] { self.state.withLock { $0 } }
}
