import Foundation
import HearthCore
import HearthTestKit
import Testing

/// Issue 7's contention target through the realtime protocol: 16 (and 64) app instances run the docs' `toggleStar`
/// transaction on one post at once, each following the JS SDK's algorithm (`SDKTransactionContender`), wave after
/// wave until enough transactions have committed. With a fair server (a `datastale` is sent only after the value
/// that beat the put) one contender wins per round, so no transaction needs more attempts than there are
/// contenders, none gives up, no rerun runs on the value just refused, and the count is exact. With 64 contenders
/// the SDK's own limit (25 attempts) would give up before a fair server could serve everyone, so there the
/// contenders keep trying up to 64.
@Suite struct WireTransactionContentionTests {
    static let post = "/posts/p1"

    @Test(arguments: [(16, 200), (64, 128)])
    func sdkContendersTogglingOneStarNeverNeedMoreAttemptsThanContenders(contenders: Int, rounds: Int) async throws {
        try await TestNode.with { node in
            let initial = #"{"title":"A hot post","author":"author","starCount":0}"#
            let created = try await node.request("PUT", "\(Self.post).json?ns=wiretest", body: initial)
            #expect(created.status == 200)
            let port = node.port
            let apps = try await onDedicatedThread {
                try (0..<contenders).map { _ in
                    try SDKTransactionContender(
                        port: port, path: Self.post,
                        maximumAttempts: max(SDKTransactionContender.sdkMaximumAttempts, contenders))
                }
            }
            var outcomes: [SDKTransactionContender.Outcome] = []
            var commits = [Int](repeating: 0, count: contenders)
            while commits.reduce(0, +) < rounds {
                let current = try await Self.storedPost(node).hash
                let wave = try await Self.wave(apps, startingAt: current)
                for (index, outcome) in wave where outcome.committed { commits[index] += 1 }
                outcomes += wave.map(\.1)
            }

            let attempts = outcomes.map(\.attempts)
            let histogram = Dictionary(grouping: attempts) { $0 }.sorted { $0.key < $1.key }
                .map { "\($0.key):\($0.value.count)" }.joined(separator: " ")
            let aborted = outcomes.filter { !$0.committed }.count
            let staleReruns = outcomes.map(\.staleReruns).reduce(0, +)
            #expect(
                (attempts.max() ?? 0) <= contenders,
                "attempts per transaction (attempts:transactions): \(histogram)")
            #expect(
                aborted == 0,
                "\(aborted) of \(outcomes.count) transactions gave up")
            #expect(
                staleReruns == 0,
                "\(staleReruns) reruns ran on the value the server had just refused: the datastale overtook the value")

            let final = try await Self.storedPost(node)
            let starred = (0..<contenders).filter { commits[$0] % 2 == 1 }.map { "c\($0)" }
            let stars = final.child(Key(unchecked: "stars")).children.map(\.key.string)
            #expect(final.child(Key(unchecked: "starCount")).leafValue == .int(Int64(starred.count)))
            #expect(stars.sorted() == starred.sorted())
        }
    }

    /// Every contender runs one transaction at once, each starting as soon as its cache holds `hash`.
    private static func wave(_ contenders: [SDKTransactionContender], startingAt hash: String) async throws
        -> [(Int, SDKTransactionContender.Outcome)]
    {
        try await withThrowingTaskGroup(of: (Int, SDKTransactionContender.Outcome).self) { group in
            for (index, contender) in contenders.enumerated() {
                group.addTask {
                    try await onDedicatedThread {
                        try contender.waitForValue(hash: hash)
                        return (index, try contender.run(Self.toggleStar(uid: "c\(index)")))
                    }
                }
            }
            var outcomes: [(Int, SDKTransactionContender.Outcome)] = []
            for try await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
    }

    /// The docs' `toggleStar` update: stars or unstars `uid` and moves `starCount` with it.
    private static func toggleStar(uid: String) -> (Node) -> Node? {
        { post in
            let countPath = Path(keys: [Key(unchecked: "starCount")])
            let starPath = Path(keys: [Key(unchecked: "stars"), Key(unchecked: uid)])
            guard case .int(let count)? = post.node(at: countPath).leafValue else { return post }
            if post.node(at: starPath).leafValue == .bool(true) {
                return post.setting(.empty, at: starPath).setting(Node(.int(count - 1)), at: countPath)
            }
            return post.setting(Node(.bool(true)), at: starPath).setting(Node(.int(count + 1)), at: countPath)
        }
    }

    private static func storedPost(_ node: TestNode) async throws -> Node {
        let response = try await node.request("GET", "\(Self.post).json?ns=wiretest")
        return try WriteValue.parseWrite(response.body, depth: 2).node
    }
}
