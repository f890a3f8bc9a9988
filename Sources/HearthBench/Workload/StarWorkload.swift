public import HearthCore

/// The docs' star workload for one run: which posts and users there are, who wrote each post, which users each
/// client stars as, and what a star or un-star writes.
///
/// Every name carries the run's id, so a run starts from posts nobody has starred and never touches data a
/// previous run (or an app) left. A user belongs to one client (`user % clients == client`), so no two clients
/// toggle the same star and each knows, from its own answers, whether its stars are set.
public struct StarWorkload: Sendable, Equatable {
    /// How many authors the posts are spread over (each has several posts under `user-posts/$author`).
    public static let authors = 8

    public let run: String
    public let posts: Int
    public let users: Int
    public let clients: Int
    /// Every client stars post 0.
    public let hot: Bool
    /// What each starred post's star writes below, named once (`starredPosts`; a star named them by interpolation
    /// each time, a tenth of the load generator's CPU).
    private var starKeys: [StarKeys] = []

    public init(run: String, posts: Int, users: Int, clients: Int, hot: Bool) {
        self.run = run
        self.posts = posts
        self.users = users
        self.clients = clients
        self.hot = hot
        self.starKeys = self.starredPosts.map { StarKeys(base: [self.postPath($0), self.copyPath($0)]) }
    }

    /// A run id: `r` and eight random base-36 digits.
    public static func runID(using generator: inout some RandomNumberGenerator) -> String {
        let digits = Array("0123456789abcdefghijklmnopqrstuvwxyz")
        return "r" + String((0..<8).map { _ in digits[Int.random(in: 0..<digits.count, using: &generator)] })
    }

    public func postID(_ post: Int) -> String { "\(self.run)-p\(post)" }

    public func author(ofPost post: Int) -> String { "\(self.run)-a\(post % Self.authors)" }

    public func userID(_ user: Int) -> String { "u\(user)" }

    /// `posts/$p`.
    public func postPath(_ post: Int) -> String { "posts/\(self.postID(post))" }

    /// `user-posts/$author/$p`, the author's copy.
    public func copyPath(_ post: Int) -> String { "user-posts/\(self.author(ofPost: post))/\(self.postID(post))" }

    /// `posts/$p` as a path.
    public func postLocation(_ post: Int) -> Path {
        Path(keys: [Key(unchecked: "posts"), Key(unchecked: self.postID(post))])
    }

    /// `user-posts/$author/$p` as a path.
    public func copyLocation(_ post: Int) -> Path {
        Path(keys: [
            Key(unchecked: "user-posts"), Key(unchecked: self.author(ofPost: post)), Key(unchecked: self.postID(post)),
        ])
    }

    /// Every path the run writes below, each holding nothing but the run's data: `posts/$p` for each post, and
    /// `user-posts/$author` for each of the run's authors (whose ids carry the run's id, so the whole author is the
    /// run's). Setting them all to null removes the run.
    public var writtenPaths: [String] {
        (0..<self.posts).map(self.postPath)
            + (0..<min(self.posts, Self.authors)).map { "user-posts/\(self.author(ofPost: $0))" }
    }

    /// The paths a run wrote, in words: `posts/$run-p* and user-posts/$run-a*`.
    public var writtenPattern: String { "posts/\(self.run)-p* and user-posts/\(self.run)-a*" }

    /// The posts the clients star: all of them, or post 0 alone when hot.
    public var starredPosts: Range<Int> { self.hot ? 0..<1 : 0..<self.posts }

    /// The users `client` stars as.
    public func users(ofClient client: Int) -> [Int] { Array(stride(from: client, to: self.users, by: self.clients)) }

    /// One post as it starts, in both places: its author, a title and no stars.
    public func setup(_ post: Int) -> [JSONKey: JSONValue] {
        let value = JSONValue.object([
            "author": .string(self.author(ofPost: post)), "title": .string("Post \(post) of run \(self.run)"),
            "starCount": .int(0),
        ])
        return [JSONKey(self.postPath(post)): value, JSONKey(self.copyPath(post)): value]
    }

    /// The docs' fan-out star (or un-star) of `post` by `user`: one update at the root that sets (or removes) the
    /// star and moves `starCount` by one with `ServerValue.increment`, in the post and in its author's copy.
    public func starUpdate(post: Int, user: Int, starring: Bool) -> [JSONKey: JSONValue] {
        let keys =
            self.starKeys.indices.contains(post)
            ? self.starKeys[post] : StarKeys(base: [self.postPath(post), self.copyPath(post)])
        let increment = starring ? Self.plusOne : Self.minusOne
        let user = self.userID(user)
        var update: [JSONKey: JSONValue] = [:]
        update.reserveCapacity(2 * keys.stars.count)
        for (stars, count) in zip(keys.stars, keys.counts) {
            update[JSONKey(stars + user)] = starring ? .bool(true) : .null
            update[count] = increment
        }
        return update
    }

    private static let plusOne = Self.increment(1)
    private static let minusOne = Self.increment(-1)

    private static func increment(_ delta: Int64) -> JSONValue {
        .object([".sv": .object(["increment": .int(delta)])])
    }

    /// One post's `$base/stars/` prefixes and `$base/starCount` keys, in the post and in its author's copy.
    private struct StarKeys: Sendable, Equatable {
        let stars: [String]
        let counts: [JSONKey]

        init(base: [String]) {
            self.stars = base.map { "\($0)/stars/" }
            self.counts = base.map { "\($0)/starCount" }
        }
    }
}

extension StarWorkload {
    /// The next star a client toggles: a random post (post 0 when hot) and one of its `users` whose star it knows
    /// (`ledger`), to star or un-star it; nil when none could be found (every one it tried went uncertain).
    public func pick(
        users: [Int], ledger: StarLedger, using generator: inout some RandomNumberGenerator
    ) -> (pair: StarLedger.Pair, starring: Bool)? {
        guard !users.isEmpty else { return nil }
        for _ in 0..<64 {
            let pair = StarLedger.Pair(
                post: Int.random(in: self.starredPosts, using: &generator),
                user: users[Int.random(in: 0..<users.count, using: &generator)])
            if let starred = ledger.isStarred(pair) { return (pair, !starred) }
        }
        return nil
    }
}
