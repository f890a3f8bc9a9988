import HearthCore
import Testing

@testable import HearthBench

/// The end-of-run checks: a consistent store passes; each way of losing or inventing a star is named by its path.
@Suite struct StarVerifierTests {
    private static let workload = StarWorkload(run: "rv", posts: 2, users: 4, clients: 2, hot: false)

    /// A post with these users' stars and this count.
    private static func post(_ users: [Int], count: Int? = nil) throws -> Node {
        var members: [JSONKey: JSONValue] = ["author": .string("a"), "starCount": .int(Int64(count ?? users.count))]
        if !users.isEmpty {
            members["stars"] = .object(Dictionary(uniqueKeysWithValues: users.map { ("u\($0)", JSONValue.bool(true)) }))
        }
        return try WriteValue(json: .object(members), depth: 0).node
    }

    private static func ledger(starred: [(Int, Int)], unstarred: [(Int, Int)] = [], uncertain: [(Int, Int, Bool)] = [])
        -> StarLedger
    {
        var ledger = StarLedger()
        for (post, user) in starred { ledger.record(.init(post: post, user: user), starring: true, .applied) }
        for (post, user) in unstarred {
            ledger.record(.init(post: post, user: user), starring: true, .applied)
            ledger.record(.init(post: post, user: user), starring: false, .applied)
        }
        for (post, user, starring) in uncertain {
            ledger.record(.init(post: post, user: user), starring: starring, .uncertain)
        }
        return ledger
    }

    private static func check(_ posts: [Int: Node], copies: [Int: Node]? = nil, _ ledger: StarLedger) -> [String] {
        StarVerifier(workload: Self.workload, checksCopies: true).violations(
            posts: posts, copies: copies ?? posts, ledger: ledger)
    }

    @Test func aConsistentStorePasses() throws {
        let ledger = Self.ledger(starred: [(0, 1), (1, 2)], unstarred: [(0, 3)])
        #expect(Self.check([0: try Self.post([1]), 1: try Self.post([2])], ledger).isEmpty)
    }

    @Test func aCountThatDisagreesWithItsStarsIsNamed() throws {
        let violations = Self.check(
            [0: try Self.post([1], count: 2), 1: try Self.post([])], Self.ledger(starred: [(0, 1)]))
        #expect(violations == ["posts/rv-p0/starCount: 2 but 1 stars"])
    }

    @Test func aCopyThatDiffersIsNamed() throws {
        let posts = [0: try Self.post([1]), 1: try Self.post([])]
        let violations = Self.check(
            posts, copies: [0: try Self.post([]), 1: try Self.post([])], Self.ledger(starred: [(0, 1)]))
        #expect(violations == ["user-posts/rv-a0/rv-p0: differs from posts/rv-p0"])
    }

    @Test func lostAndInventedStarsAreNamed() throws {
        let violations = Self.check([0: try Self.post([2]), 1: try Self.post([])], Self.ledger(starred: [(0, 1)]))
        #expect(violations.contains("posts/rv-p0/stars/u1: an acknowledged star is missing"))
        #expect(violations.contains("posts/rv-p0/stars/u2: set, but never acknowledged or since removed"))
    }

    @Test func anUncertainToggleMayHaveHappenedOrNot() throws {
        let ledger = Self.ledger(starred: [(0, 1)], uncertain: [(1, 3, true)])
        #expect(Self.check([0: try Self.post([1]), 1: try Self.post([3])], ledger).isEmpty)
        #expect(Self.check([0: try Self.post([1]), 1: try Self.post([])], ledger).isEmpty)
        #expect(ledger.totalBounds == 1...2)
    }

    @Test func withoutTheFanOutEachCopyStillCountsItsOwnStars() throws {
        let posts = [0: try Self.post([1]), 1: try Self.post([])]
        let verifier = StarVerifier(workload: Self.workload, checksCopies: false)
        let ledger = Self.ledger(starred: [(0, 1)])
        #expect(
            verifier.violations(posts: posts, copies: [0: try Self.post([]), 1: try Self.post([])], ledger: ledger)
                .isEmpty)
        #expect(
            verifier.violations(
                posts: posts, copies: [0: try Self.post([2], count: 0), 1: try Self.post([])], ledger: ledger)
                == ["user-posts/rv-a0/rv-p0/starCount: 0 but 1 stars"])
    }

    @Test func aMissingPostIsNamed() throws {
        #expect(Self.check([0: try Self.post([])], Self.ledger(starred: [])) == ["posts/rv-p1: the post is gone"])
    }

    @Test func ledgersOfClientsAddUp() {
        var first = Self.ledger(starred: [(0, 0)], uncertain: [(1, 0, false)])
        first.merge(Self.ledger(starred: [(0, 1)], unstarred: [(1, 1)]))
        #expect(first.acknowledgedStars == 3 && first.acknowledgedUnstars == 1 && first.uncertainUnstars == 1)
        #expect(first.isStarred(.init(post: 0, user: 1)) == true && first.isStarred(.init(post: 1, user: 0)) == nil)
        #expect(first.totalBounds == 1...2)
    }
}
