import Foundation
import HearthTestKit
import Testing

@testable import Hearth

/// The public API against a real node: what FirebaseDatabase's docs show, end to end.
@Suite(.serialized, .timeLimit(.minutes(2))) struct DatabaseAPILoopbackTests {
    /// The docs' user profile: set, update, read back by another client, with local events first.
    @Test func setUpdateAndListenAcrossClients() async throws {
        let harness = try await APIHarness()
        defer { harness.terminate() }
        let alice = try harness.client().reference(withPath: "users/ada")
        let watcher = try harness.client().reference(withPath: "users/ada")
        let seen = Received<SnapshotText>()
        watcher.observe(.value) { seen.append(SnapshotText($0)) }

        try await alice.setValue(["name": "Ada", "age": 36])
        try await alice.updateChildValues(["age": 37, "languages/swift": true])
        #expect(
            await eventually(seconds: 30) { seen.last?.json == #"{"age":37,"languages":{"swift":true},"name":"Ada"}"# })
        let read = try await watcher.getData()
        #expect((read.value as? [String: Any])?["age"] as? Int == 37)
        #expect(read.childSnapshot(forPath: "languages/swift").value as? Bool == true)
        #expect(read.hasChild("name") && !read.hasChild("email"))
    }

    /// A Codable value written with `setValue(from:)` reads back with `data(as:)`; `@ServerTimestamp` is the
    /// server's clock.
    @Test func codableValuesRoundTrip() async throws {
        struct Profile: Codable, Equatable {
            var name: String
            var languages: [String]
            @ServerTimestamp var joined: Date?
        }
        let harness = try await APIHarness()
        defer { harness.terminate() }
        let ref = try harness.client().reference(withPath: "profiles/ada")
        let written = Received<Bool>()
        try ref.setValue(from: Profile(name: "Ada", languages: ["en", "fr"])) { written.append($0 == nil) }
        #expect(await eventually(seconds: 30) { written.all == [true] })
        let other = try harness.client().reference(withPath: "profiles/ada")
        let profile = try await other.getData().data(as: Profile.self)
        #expect(profile.name == "Ada" && profile.languages == ["en", "fr"])
        let joined = try #require(profile.joined)
        #expect(abs(joined.timeIntervalSinceNow) < 60)
    }

    /// Bad input changes nothing and says why: the completion gets Firebase's domain and a message.
    @Test func invalidValuesFailTheirCompletionAndWriteNothing() async throws {
        let harness = try await APIHarness()
        defer { harness.terminate() }
        let ref = try harness.client().reference(withPath: "checked")
        await #expect(throws: (any Error).self) { try await ref.setValue(["when": Date()]) }
        await #expect(throws: (any Error).self) { try await ref.updateChildValues(["a": 1, "a/b": 2]) }
        await #expect(throws: (any Error).self) { try await ref.root.child(".info/connected").setValue(true) }
        do {
            try await ref.setValue(["bad.key": 1])
        } catch let error as NSError {
            #expect(error.domain == "com.firebase")
            #expect(error.localizedDescription.contains("bad.key"))
        }
        let snapshot = try await ref.getData()
        #expect(!snapshot.exists())
        #expect(snapshot.value is NSNull)
    }

    /// Child events in the query's order with previous-sibling keys, as `queryOrdered(byChild:)` and a limit
    /// show them: the docs' top posts by star count.
    @Test func childEventsFollowTheQuerysOrder() async throws {
        let harness = try await APIHarness()
        defer { harness.terminate() }
        let posts = try harness.client().reference(withPath: "posts")
        try await posts.setValue(["a": ["stars": 5], "b": ["stars": 1], "c": ["stars": 9]])
        let top = posts.queryOrdered(byChild: "stars").queryLimited(toLast: 2)
        let added = Received<SnapshotText>()
        let removed = Received<SnapshotText>()
        top.observe(.childAdded, andPreviousSiblingKeyWith: { added.append(SnapshotText($0, previous: $1)) })
        top.observe(.childRemoved) { removed.append(SnapshotText($0)) }
        #expect(await eventually(seconds: 30) { added.all.map(\.key) == ["a", "c"] })
        #expect(added.all.map(\.previous) == [nil, "a"])

        try await posts.child("b/stars").setValue(20)
        #expect(await eventually(seconds: 30) { removed.all.map(\.key) == ["a"] })
        #expect(added.last?.key == "b")
        #expect(added.last?.previous == "c")
        let ordered = try await top.getData()
        let keys = ordered.children.allObjects.compactMap { ($0 as? DataSnapshot)?.key }
        #expect(keys == ["c", "b"])
    }

    /// Removing an observer stops its callbacks; a single-event observer hears once.
    @Test func removedAndSingleEventObserversStopHearing() async throws {
        let harness = try await APIHarness()
        defer { harness.terminate() }
        let ref = try harness.client().reference(withPath: "counter")
        let every = Received<SnapshotText>()
        let once = Received<SnapshotText>()
        let handle = ref.observe(.value) { every.append(SnapshotText($0)) }
        ref.observeSingleEvent(of: .value) { once.append(SnapshotText($0)) }
        try await ref.setValue(1)
        #expect(await eventually(seconds: 30) { every.last?.json == "1" })
        ref.removeObserver(withHandle: handle)
        let heard = every.all.count
        try await ref.setValue(2)
        try await Task.sleep(for: .milliseconds(200))
        #expect(every.all.count == heard)
        #expect(once.all.count == 1)
    }

    /// The docs' star toggle from 32 clients at once: every transaction commits, the count is exact. (With a fair
    /// server one contender wins per round; resending at once, as Firebase's clients do, the last of 32 would need
    /// more than the 25 sends allowed. The engine backs off between stale sends instead.)
    @Test func concurrentStarTransactionsCountExactly() async throws {
        let harness = try await APIHarness()
        defer { harness.terminate() }
        let contenders = 32
        let post = try harness.client().reference(withPath: "posts/p1")
        try await post.setValue(["starCount": 0])
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<contenders {
                let ref = try harness.client().reference(withPath: "posts/p1")
                group.addTask {
                    let (committed, _) = try await ref.runTransactionBlock { data in
                        var post = data.value as? [String: Any] ?? [:]
                        var stars = post["stars"] as? [String: Bool] ?? [:]
                        stars["u\(index)"] = true
                        post["stars"] = stars
                        post["starCount"] = ((post["starCount"] as? Int) ?? 0) + 1
                        data.value = post
                        return TransactionResult.success(withValue: data)
                    }
                    return committed
                }
            }
            for try await committed in group { #expect(committed) }
        }
        let final = try await post.getData()
        #expect(final.childSnapshot(forPath: "starCount").value as? Int == contenders)
        #expect(final.childSnapshot(forPath: "stars").childrenCount == UInt(contenders))
    }

    /// `ServerValue.increment` from many clients counts every one; `timestamp` is the server's clock.
    @Test func serverValuesAreFilledInByTheServer() async throws {
        let harness = try await APIHarness()
        defer { harness.terminate() }
        let clients = try (0..<8).map { _ in try harness.client().reference(withPath: "likes") }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for ref in clients {
                group.addTask {
                    for _ in 0..<5 { try await ref.setValue(ServerValue.increment(1)) }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await clients[0].getData().value as? Int == 40)
        let stamp = clients[0].root.child("stamp")
        try await stamp.setValue(ServerValue.timestamp())
        let written = try await stamp.getData().value as? Int64 ?? 0
        #expect(abs(written - Repo.now()) < 60_000)
    }

    /// `purgeOutstandingWrites` cancels what is queued offline: the completion gets `write_canceled` (code 3), the
    /// local value goes, and the server never sees the write.
    @Test func purgedOfflineWritesNeverReachTheServer() async throws {
        let harness = try await APIHarness()
        defer { harness.terminate() }
        let database = try harness.client()
        let ref = database.reference(withPath: "drafts/d1")
        #expect(ref.database === database)
        try await ref.setValue("saved")
        let seen = Received<SnapshotText>()
        ref.observe(.value) { seen.append(SnapshotText($0)) }
        #expect(await eventually(seconds: 30) { seen.last?.json == #""saved""# })
        database.goOffline()
        let outcome = Received<Int>()
        ref.setValue("unsent") { error, _ in outcome.append((error as NSError?)?.code ?? 0) }
        #expect(await eventually(seconds: 30) { seen.last?.json == #""unsent""# })
        database.purgeOutstandingWrites()
        #expect(await eventually(seconds: 30) { outcome.all == [3] })
        #expect(seen.last?.json == #""saved""#)
        database.goOnline()
        let other = try harness.client().reference(withPath: "drafts/d1")
        #expect(try await other.getData().value as? String == "saved")
    }

    /// The docs' presence: onDisconnect removes a client's entry when its connection ends; `.info/connected`
    /// flips with `goOffline` / `goOnline`.
    @Test func presenceAndConnectedState() async throws {
        let harness = try await APIHarness()
        defer { harness.terminate() }
        let phone = try harness.client()
        let watcher = try harness.client().reference(withPath: "presence")
        let connected = Received<Bool>()
        phone.reference(withPath: ".info/connected").observe(.value) { connected.append($0.value as? Bool == true) }
        let entry = phone.reference(withPath: "presence").childByAutoId()
        try await entry.onDisconnectRemoveValue()
        try await entry.setValue(true)
        let presence = Received<UInt>()
        watcher.observe(.value) { presence.append($0.childrenCount) }
        #expect(await eventually(seconds: 30) { presence.last == 1 })
        #expect(connected.last == true)

        phone.goOffline()
        #expect(await eventually(seconds: 30) { connected.last == false })
        #expect(await eventually(seconds: 30) { presence.last == 0 })
        phone.goOnline()
        #expect(await eventually(seconds: 30) { connected.last == true })
    }
}
