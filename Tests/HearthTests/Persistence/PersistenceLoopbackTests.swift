import Foundation
import HearthTestKit
import Testing

@testable import Hearth

/// Persistence against a real node: what an app restarted (a new `Database` on the same folder) still has.
@Suite(.serialized, .timeLimit(.minutes(2))) struct PersistenceLoopbackTests {
    /// Writes and increments made offline survive a restart and reach the server once, after it.
    @Test func offlineWritesSurviveARestartAndAreSentOnce() async throws {
        let harness = try await APIHarness()
        defer { harness.terminate() }
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let before = try harness.client(persistenceDirectory: folder.path)
        Self.writeOffline(before)
        before.close()

        let after = try harness.client(persistenceDirectory: folder.path)
        let seen = Received<SnapshotText>()
        after.reference(withPath: "offline").observe(.value) { seen.append(SnapshotText($0)) }
        let expected = #"{"likes":3,"note":"written offline","tags":{"swift":true}}"#
        #expect(await eventually(seconds: 30) { seen.last?.json == expected })
        let reader = try harness.client().reference(withPath: "offline")
        #expect(await eventually(seconds: 30) { (try? await SnapshotText(reader.getData()).json) == expected })
        after.close()
        let again = try harness.client(persistenceDirectory: folder.path)
        try await Task.sleep(for: .milliseconds(300))
        #expect(try await SnapshotText(reader.getData()).json == expected)
        again.close()
    }

    /// Increments sent but not answered when the app died (the link deafened: requests arrive, answers do not) are
    /// sent again by the restarted app under the origins it logged, and the node, which applied them, does not apply
    /// them again: the count is exact.
    @Test func unansweredWritesAreAppliedOnceAfterARestart() async throws {
        let harness = try await APIHarness()
        defer { harness.terminate() }
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let proxy = try FaultyTCPProxy(targetPort: harness.server.port)
        defer { proxy.close() }
        let reader = try harness.client().reference(withPath: "likes")
        let before = try harness.client(port: proxy.port, persistenceDirectory: folder.path)
        try await before.reference(withPath: "likes").setValue(0)
        proxy.setMode(.deafen)
        for _ in 0..<5 {
            before.reference(withPath: "likes").setValue(ServerValue.increment(1), withCompletionBlock: { _, _ in })
        }
        before.reference().updateChildValues(
            ["likes": ServerValue.increment(10), "tally/likes": ServerValue.increment(10)],
            withCompletionBlock: { _, _ in })
        #expect(await eventually(seconds: 30) { (try? await reader.getData().value as? Int) == 15 })
        before.close()
        proxy.heal()

        let after = try harness.client(port: proxy.port, persistenceDirectory: folder.path)
        let seen = Received<SnapshotText>()
        after.reference(withPath: "likes").observe(.value) { seen.append(SnapshotText($0)) }
        #expect(await eventually(seconds: 30) { seen.last?.json == "15" })
        // Every logged write is answered once the write log is empty again.
        let databaseFolder = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first)
        let log = folder.child(databaseFolder + "/writes.log")
        #expect(
            await eventually(seconds: 20) {
                ((try? FileManager.default.attributesOfItem(atPath: log)[.size] as? Int) ?? 0) == 0
            })
        let likes = try await reader.getData().value as? Int
        let tally = try await reader.root.child("tally/likes").getData().value as? Int
        #expect(likes == 15)
        #expect(tally == 10)
        after.close()
    }

    /// Fire-and-forget writes, as an app makes them outside `async` code (inside it, the `async` forms are chosen).
    private static func writeOffline(_ database: Database) {
        database.goOffline()
        let ref = database.reference(withPath: "offline")
        ref.child("note").setValue("written offline")
        ref.updateChildValues(["likes": ServerValue.increment(1), "tags/swift": true])
        ref.child("likes").setValue(ServerValue.increment(2))
    }

    /// Data listened to before a restart is there after it with the server gone; a damaged cache is dropped with a
    /// warning, and the client carries on.
    @Test func theCacheServesListenersOfflineAfterARestart() async throws {
        let harness = try await APIHarness()
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let writer = try harness.client().reference(withPath: "menu")
        try await writer.setValue(["soup": 4, "bread": 2])
        let before = try harness.client(persistenceDirectory: folder.path)
        let first = Received<SnapshotText>()
        before.reference(withPath: "menu").observe(.value) { first.append(SnapshotText($0)) }
        #expect(await eventually(seconds: 30) { first.last?.json == #"{"bread":2,"soup":4}"# })
        before.close()
        await harness.stop()

        let after = try harness.client(persistenceDirectory: folder.path)
        let cached = Received<SnapshotText>()
        after.reference(withPath: "menu").queryOrderedByValue().queryLimited(toLast: 1).observe(.value) {
            cached.append(SnapshotText($0))
        }
        #expect(await eventually(seconds: 30) { cached.last?.json == #"{"soup":4}"# })
        after.close()

        let databaseFolder = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first)
        try Data("damaged".utf8).write(to: URL(fileURLWithPath: folder.child(databaseFolder + "/cache.bin")))
        let damaged = try harness.client(persistenceDirectory: folder.path)
        let nothing = Received<SnapshotText>()
        damaged.reference(withPath: "menu").observe(.value) { nothing.append(SnapshotText($0)) }
        let written = Received<Bool>()
        damaged.reference(withPath: "local").setValue(1) { _, _ in written.append(true) }
        try await Task.sleep(for: .milliseconds(300))
        #expect(nothing.all.isEmpty)
        damaged.close()
    }
}
