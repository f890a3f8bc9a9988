import Foundation
import HearthCore
import HearthStorage
import HearthSystem
import HearthTestKit
import HearthWire
import Synchronization
import Testing

@testable import HearthDatabase
@testable import HearthNode
@testable import HearthServer

/// The read view and the shards edit their trees in place when they hold them alone. Readers capture roots while
/// stars are written, and a listener keeps the roots before and after every change it hears: every captured root must
/// stay exactly as it was captured, and every one must show whole stars (each copy's `starCount` equals its number of
/// stars, since a star writes both copies atomically).
@Suite struct InPlaceViewConcurrencyTests {
    static let copies = [Fixture.path("posts/p1"), Fixture.path("user-posts/author/p1")]

    static func star(_ uid: String) throws -> [Mutation] {
        var members: [JSONKey: JSONValue] = [:]
        for copy in Self.copies {
            members["\(copy.slashless)/stars/\(uid)"] = .bool(true)
            members["\(copy.slashless)/starCount"] = .object([".sv": .object(["increment": .int(1)])])
        }
        return try WriteRules.update(members, at: .root)
    }

    /// Nil when every copy in `root` holds whole stars, else what is wrong.
    static func tornStar(in root: Node) -> String? {
        for copy in Self.copies {
            let post = root.node(at: copy)
            let count = post.child(Key(unchecked: "starCount")).leafValue
            let stars = post.child(Key(unchecked: "stars")).childCount
            if stars == 0 && count == nil { continue }
            if count != .int(Int64(stars)) { return "\(copy): starCount \(String(describing: count)), \(stars) stars" }
        }
        return nil
    }

    /// Hears every change under the posts and checks both roots of each.
    final class RootChecker: ChangeListener {
        let namespace = "bench"
        let path = Fixture.path("posts")
        let problems = Mutex<[String]>([])
        let heard = Mutex(0)

        func changed(_ change: CommittedChange) {
            self.heard.withLock { $0 += 1 }
            for (name, root) in [("old", change.oldRoot), ("new", change.newRoot)] {
                if let torn = InPlaceViewConcurrencyTests.tornStar(in: root) {
                    self.problems.withLock { $0.append("\(name) root of change \(change.sequence): \(torn)") }
                }
            }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func capturedRootsNeverChangeAndShowWholeStars() async throws {
        var configuration = NodeConfiguration()
        configuration.dataDirectory = try TemporaryDirectory().path
        configuration.fsync = .off
        defer { try? FileManager.default.removeItem(atPath: configuration.dataDirectory) }
        let database = try await Database.open(configuration: configuration, log: Log(level: .warning))
        let checker = RootChecker()
        for index in 0..<10 {
            _ = try await database.write(namespace: "bench", mutations: try Self.star("first\(index)"))
        }
        _ = database.view.addListener(checker)
        let deadline = ContinuousClock.now + .milliseconds(1500)
        let written = try await withThrowingTaskGroup(of: Int.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    // At least 20 stars each, however slow the machine, so readers and the listener see traffic.
                    var sent = 0
                    while sent < 20 || ContinuousClock.now < deadline {
                        _ = try await database.write(namespace: "bench", mutations: try Self.star("w\(writer)x\(sent)"))
                        sent += 1
                    }
                    return sent
                }
            }
            for _ in 0..<2 {
                group.addTask {
                    while ContinuousClock.now < deadline {
                        let root = database.root("bench")
                        let bytes = root.jsonBytes()
                        let hash = root.hash
                        if let torn = Self.tornStar(in: root) { Issue.record("captured root: \(torn)") }
                        try await Task.sleep(for: .milliseconds(2))
                        let unchanged = root.jsonBytes() == bytes && root.hash == hash
                        #expect(unchanged, "a captured root changed after capture")
                        if !unchanged { break }
                    }
                    return 0
                }
            }
            return try await group.reduce(0, +)
        }
        database.view.removeListener(checker)
        let final = database.root("bench")
        await database.close()
        #expect(Self.tornStar(in: final) == nil)
        #expect(
            final.node(at: Self.copies[0]).child(Key(unchecked: "starCount")).leafValue == .int(Int64(written + 10)))
        #expect(checker.heard.withLock { $0 } > 0)
        #expect(checker.problems.withLock { $0 }.isEmpty, "\(checker.problems.withLock { $0 }.prefix(3))")
    }
}
