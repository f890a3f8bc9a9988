import HearthCore
import HearthTestKit
import Testing

@testable import HearthBench

/// The run's posts, users and writes: names carry the run, users are shared out without overlap, and a star
/// writes the docs' fan-out.
@Suite struct StarWorkloadTests {
    private static let workload = StarWorkload(run: "rtest", posts: 5, users: 23, clients: 4, hot: false)

    @Test func everyUserBelongsToExactlyOneClient() {
        let owned = (0..<4).flatMap { Self.workload.users(ofClient: $0) }
        #expect(owned.sorted() == Array(0..<23))
    }

    @Test func namesCarryTheRun() {
        #expect(Self.workload.postPath(3) == "posts/rtest-p3")
        #expect(Self.workload.copyPath(3) == "user-posts/rtest-a3/rtest-p3")
        #expect(Self.workload.copyPath(11).hasPrefix("user-posts/rtest-a3/"))
        #expect(Self.workload.postLocation(3).slashless == Self.workload.postPath(3))
        #expect(Self.workload.copyLocation(3).slashless == Self.workload.copyPath(3))
        var random = SeededRandom(seed: 1)
        let id = StarWorkload.runID(using: &random)
        #expect(id.count == 9 && id.hasPrefix("r"))
    }

    @Test func aStarIsTheDocsFanOut() {
        let star = Self.workload.starUpdate(post: 1, user: 7, starring: true)
        let increment = JSONValue.object([".sv": .object(["increment": .int(1)])])
        #expect(
            star == [
                "posts/rtest-p1/stars/u7": .bool(true), "posts/rtest-p1/starCount": increment,
                "user-posts/rtest-a1/rtest-p1/stars/u7": .bool(true),
                "user-posts/rtest-a1/rtest-p1/starCount": increment,
            ])
        let unstar = Self.workload.starUpdate(post: 1, user: 7, starring: false)
        #expect(unstar["posts/rtest-p1/stars/u7"] == .null)
        #expect(unstar["posts/rtest-p1/starCount"] == .object([".sv": .object(["increment": .int(-1)])]))
    }

    @Test func setUpWritesBothCopiesAlike() {
        let setup = Self.workload.setup(2)
        #expect(setup.count == 2 && setup["posts/rtest-p2"] == setup["user-posts/rtest-a2/rtest-p2"])
        #expect(setup["posts/rtest-p2"]?["starCount"] == .int(0))
    }

    @Test func aHotRunStarsOnePost() {
        let hot = StarWorkload(run: "r", posts: 20, users: 10, clients: 2, hot: true)
        #expect(hot.starredPosts == 0..<1 && Self.workload.starredPosts == 0..<5)
    }

    @Test func aClientPicksOnlyItsOwnKnownStars() {
        var ledger = StarLedger()
        let users = Self.workload.users(ofClient: 1)
        for user in users.dropFirst() {
            ledger.record(.init(post: 0, user: user), starring: true, .uncertain)
        }
        ledger.record(.init(post: 2, user: users[0]), starring: true, .applied)
        var random = SeededRandom(seed: 7)
        for _ in 0..<200 {
            guard let (pair, starring) = Self.workload.pick(users: users, ledger: ledger, using: &random) else {
                Issue.record("nothing picked")
                return
            }
            #expect(users.contains(pair.user) && Self.workload.starredPosts.contains(pair.post))
            #expect(ledger.isStarred(pair) == !starring)
        }
        #expect(Self.workload.pick(users: [], ledger: ledger, using: &random) == nil)
    }

    @Test func theToggleAddsOrRemovesTheStarAndMovesTheCount() throws {
        let post = JSONValue.object([
            "author": .string("a"), "starCount": .int(1), "stars": .object(["u1": .bool(true)]),
        ])
        let starred = try #require(StarToggle.toggled(post, uid: "u2"))
        #expect(starred.starred && starred.post["starCount"] == .int(2) && starred.post["stars"]?["u2"] == .bool(true))
        let unstarred = try #require(StarToggle.toggled(post, uid: "u1"))
        #expect(!unstarred.starred && unstarred.post["starCount"] == .int(0) && unstarred.post["stars"] == nil)
        #expect(StarToggle.toggled(.null, uid: "u1") == nil)
        #expect(StarToggle.toggled(.object(["author": .string("a")]), uid: "u1")?.post["starCount"] == .int(1))
    }
}
