import Foundation
import HearthTestKit
import Testing

@testable import Hearth

/// More of the public API against a real node: presence when a client vanishes, priorities, child moves, fan-out,
/// keepSynced and range queries.
@Suite(.serialized, .timeLimit(.minutes(2))) struct DatabaseAPIMoreLoopbackTests {
    /// A client that vanishes (its connection cut, as when its process is killed) has its onDisconnect writes
    /// run by the server: the docs' presence with `lastOnline`. A cancelled operation does not run.
    @Test func onDisconnectRunsWhenAClientVanishes() async throws {
        let harness = try await APIHarness()
        defer { harness.terminate() }
        let proxy = try FaultyTCPProxy(targetPort: harness.server.port)
        defer { proxy.close() }
        let phone = try harness.client(port: proxy.port)
        let user = phone.reference(withPath: "users/ada")
        let connection = user.child("connections").childByAutoId()
        try await connection.onDisconnectRemoveValue()
        try await user.onDisconnectUpdateChildValues(["lastOnline": ServerValue.timestamp()])
        try await user.child("status").onDisconnectSetValue("away")
        try await user.child("status").cancelDisconnectOperations()
        try await connection.setValue(true)
        try await user.child("status").setValue("here")

        let watcher = try harness.client().reference(withPath: "users/ada")
        let seen = Received<SnapshotText>()
        watcher.observe(.value) { seen.append(SnapshotText($0)) }
        #expect(await eventually(seconds: 30) { seen.last?.json.contains("connections") == true })
        proxy.cut()
        #expect(await eventually(seconds: 30) { seen.last?.json.contains("lastOnline") == true })
        let final = try await watcher.getData()
        #expect(!final.hasChild("connections"))
        #expect(final.childSnapshot(forPath: "status").value as? String == "here")
        let lastOnline = final.childSnapshot(forPath: "lastOnline").value as? Int64 ?? 0
        #expect(abs(lastOnline - Repo.now()) < 60_000)
    }

    /// Increments whose answers are lost (the link deafened: requests arrive, answers do not) are sent again after
    /// the reconnect, and the node answers them without applying them twice: the count is exact.
    @Test func incrementsCountOnceWhenTheirAnswersAreLost() async throws {
        let harness = try await APIHarness()
        defer { harness.terminate() }
        let proxy = try FaultyTCPProxy(targetPort: harness.server.port)
        defer { proxy.close() }
        let counter = try harness.client(port: proxy.port).reference(withPath: "counter")
        let reader = try harness.client().reference(withPath: "counter")
        let done = Received<Bool>()
        try await counter.setValue(0)
        for round in 1...3 {
            proxy.setMode(.deafen)
            for _ in 0..<20 {
                counter.setValue(
                    ServerValue.increment(1), withCompletionBlock: { error, _ in done.append(error == nil) })
            }
            #expect(await eventually(seconds: 30) { (try? await reader.getData().value as? Int) == 20 * round })
            proxy.heal()
            #expect(await eventually(seconds: 30) { done.all.count == 20 * round })
        }
        #expect(done.all.allSatisfy { $0 })
        #expect(try await reader.getData().value as? Int == 60)
        #expect(proxy.acceptedConnections >= 4)
    }

    /// A transaction whose answer is lost (the link deafened) is sent again after the reconnect rather than failed
    /// as `disconnected`; the node, which applied it, answers `ok` without applying it twice.
    @Test func aTransactionWhoseAnswerIsLostCommitsOnce() async throws {
        let harness = try await APIHarness()
        defer { harness.terminate() }
        let proxy = try FaultyTCPProxy(targetPort: harness.server.port)
        defer { proxy.close() }
        let counter = try harness.client(port: proxy.port).reference(withPath: "tally")
        let reader = try harness.client().reference(withPath: "tally")
        try await counter.setValue(41)
        let heard = Received<SnapshotText>()
        counter.observe(.value) { heard.append(SnapshotText($0)) }
        #expect(await eventually(seconds: 30) { heard.last?.json == "41" })
        proxy.setMode(.deafen)
        let outcome = Received<Bool>()
        counter.runTransactionBlock { data in
            data.value = (data.value as? Int ?? 0) + 1
            return TransactionResult.success(withValue: data)
        } andCompletionBlock: { error, committed, _ in
            outcome.append(error == nil && committed)
        }
        #expect(await eventually(seconds: 30) { (try? await reader.getData().value as? Int) == 42 })
        proxy.heal()
        #expect(await eventually(seconds: 30) { !outcome.all.isEmpty })
        #expect(outcome.all == [true])
        #expect(try await reader.getData().value as? Int == 42)
    }

    /// Priorities are written, read, exported and ordered by; a child whose ordering value changes is moved.
    @Test func prioritiesAndChildMoves() async throws {
        let harness = try await APIHarness()
        defer { harness.terminate() }
        let list = try harness.client().reference(withPath: "list")
        try await list.child("a").setValue("first", andPriority: 2)
        try await list.child("b").setValue("second", andPriority: 1)
        let snapshot = try await list.queryOrderedByPriority().getData()
        #expect(snapshot.children.allObjects.compactMap { ($0 as? DataSnapshot)?.key } == ["b", "a"])
        #expect(snapshot.childSnapshot(forPath: "a").priority as? Int == 2)
        let exported = snapshot.childSnapshot(forPath: "b").valueInExportFormat() as? [String: Any]
        #expect(exported?[".priority"] as? Int == 1 && exported?[".value"] as? String == "second")

        let moved = Received<SnapshotText>()
        let changed = Received<SnapshotText>()
        let scores = list.root.child("scores")
        try await scores.setValue(["x": 1, "y": 2, "z": 3])
        let byValue = scores.queryOrderedByValue()
        byValue.observe(.childMoved, andPreviousSiblingKeyWith: { moved.append(SnapshotText($0, previous: $1)) })
        byValue.observe(.childChanged) { changed.append(SnapshotText($0)) }
        try await Task.sleep(for: .milliseconds(100))
        try await scores.child("x").setValue(5)
        #expect(await eventually(seconds: 30) { moved.last?.key == "x" && changed.last?.key == "x" })
        #expect(moved.last?.previous == "z")
        try await list.child("b").setPriority(9)
        #expect(try await list.child("b").getData().priority as? Int == 9)
        byValue.removeAllObservers()
        let heard = moved.all.count + changed.all.count
        try await scores.child("y").setValue(7)
        try await Task.sleep(for: .milliseconds(200))
        #expect(moved.all.count + changed.all.count == heard)
    }

    /// The docs' post fan-out, keepSynced data read offline, and range queries.
    @Test func fanOutKeepSyncedAndRanges() async throws {
        let harness = try await APIHarness()
        defer { harness.terminate() }
        let database = try harness.client()
        let root = database.reference()
        let key = try #require(root.child("posts").childByAutoId().key)
        let post: [String: Any] = ["uid": "ada", "title": "Notes", "starCount": 3]
        try await root.updateChildValues(["/posts/\(key)": post, "/user-posts/ada/\(key)/": post])
        #expect(try await root.child("user-posts/ada/\(key)/title").getData().value as? String == "Notes")

        let posts = root.child("posts")
        posts.keepSynced(true)
        try await Task.sleep(for: .milliseconds(300))
        database.goOffline()
        let cached = try await posts.child(key).getData()
        #expect(cached.childSnapshot(forPath: "starCount").value as? Int == 3)
        database.goOnline()

        let scores = root.child("ranks")
        try await scores.setValue(["a": 1, "b": 2, "c": 2, "d": 3])
        let ordered = scores.queryOrderedByValue()
        let keys: (DataSnapshot) -> [String] = { $0.children.allObjects.compactMap { ($0 as? DataSnapshot)?.key } }
        #expect(keys(try await ordered.queryEqual(toValue: 2).getData()) == ["b", "c"])
        #expect(keys(try await ordered.queryStarting(afterValue: 2).getData()) == ["d"])
        #expect(keys(try await ordered.queryStarting(afterValue: 2, childKey: "b").getData()) == ["c", "d"])
        #expect(keys(try await ordered.queryEnding(beforeValue: 2).getData()) == ["a"])
        #expect(
            keys(try await scores.queryOrderedByKey().queryStarting(atValue: "b").queryLimited(toFirst: 2).getData())
                == ["b", "c"])
        let (first, previous) = await scores.queryOrderedByKey().observeSingleEventAndPreviousSiblingKey(
            of: .childAdded)
        #expect(first.key == "a" && previous == nil)
        #expect(database.reference(fromURL: scores.url).url == scores.url)
    }
}
