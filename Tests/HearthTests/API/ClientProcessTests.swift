import Foundation
import HearthTestKit
import Testing

@testable import Hearth

/// What only a client in a process of its own shows, with `hearth-client-probe`: a killed app's presence ends, and
/// writes it made offline and logged survive its death and reach the server once.
@Suite(.serialized, .timeLimit(.minutes(2))) struct ClientProcessTests {
    /// The docs' presence pattern in an app that is SIGKILLed: its connection entry goes and `lastOnline` is set by
    /// the server's clock.
    @Test func aKilledAppsPresenceEnds() async throws {
        let harness = try await APIHarness()
        defer { harness.terminate() }
        let watcher = try harness.client().reference(withPath: "users/ada")
        let probe = try ClientProbeProcess("presence", url: harness.url, "ada")
        let line = try await probe.nextLine()
        let key = try #require(line.split(separator: " ").last.map(String.init))
        #expect(line.hasPrefix("present "))
        #expect(try await watcher.child("connections/\(key)").getData().value as? Bool == true)
        let killed = Repo.now()
        await probe.kill()
        #expect(
            await eventually(seconds: 30) {
                guard let snapshot = try? await watcher.getData() else { return false }
                return !snapshot.hasChild("connections") && snapshot.hasChild("lastOnline")
            })
        let lastOnline = try await watcher.child("lastOnline").getData().value as? Int64 ?? 0
        #expect(abs(lastOnline - killed) < 60_000)
    }

    /// Offline writes logged by an app that is then SIGKILLed reach the server when the app runs again, once: a
    /// third run sends nothing more.
    @Test func offlineWritesOfAKilledAppAreSentOnceByItsNextRun() async throws {
        let harness = try await APIHarness()
        defer { harness.terminate() }
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let reader = try harness.client().reference(withPath: "offline")
        let writer = try ClientProbeProcess("write-offline", url: harness.url, folder.path)
        #expect(try await writer.nextLine() == "logged")
        await writer.kill()
        #expect(try await reader.getData().exists() == false)

        let expected = #"{"likes":3,"note":"written offline","tags":{"swift":true}}"#
        for run in 1...2 {
            let app = try ClientProbeProcess("online", url: harness.url, folder.path)
            #expect(try await app.nextLine() == "connected", "run \(run)")
            #expect(
                await eventually(seconds: 30) { (try? await SnapshotText(reader.getData()).json) == expected },
                "run \(run)")
            try await Task.sleep(for: .milliseconds(300))
            await app.kill()
        }
        #expect(try await SnapshotText(reader.getData()).json == expected)
    }
}
