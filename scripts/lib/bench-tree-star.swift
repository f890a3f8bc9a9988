// The body of scripts/bench-tree-star: the docs' star applied to the tree the way the write loop and the read view
// apply it, in one thread, so the tree's own work per star (copies, retains, allocations) can be counted and timed
// without the server around it.
import Glibc
import HearthCore

/// This thread's CPU time in seconds.
func threadSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// A fixed xorshift sequence, so every run (and every build) applies the same stars.
struct Sequence64 {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15

    mutating func next(below bound: Int) -> Int {
        self.state ^= self.state << 13
        self.state ^= self.state >> 7
        self.state ^= self.state << 17
        return Int(self.state % UInt64(bound))
    }
}

/// Two shards' trees (`posts/$p` in one, `user-posts/$a/$p` in the other), the subtrees the view took at the last
/// turn's end, and the view's root they were set into, as `captureTurn` and `ViewState.apply` do.
struct StarModel {
    static let posts = 20
    static let users = 1000
    static let authors = 8
    let postKeys = (0..<StarModel.posts).map { Key(unchecked: "r0000000-p\($0)") }
    let authorKeys = (0..<StarModel.authors).map { Key(unchecked: "r0000000-a\($0)") }
    let userKeys = (0..<StarModel.users).map { Key(unchecked: "u\($0)") }
    var starred = [[Bool]](repeating: [Bool](repeating: false, count: StarModel.users), count: StarModel.posts)
    var counts = [Int](repeating: 0, count: StarModel.posts)
    var shards = [Node.empty, Node.empty]
    var view = Node.empty
    var held: [Path: Node] = [:]
    var sequence = Sequence64()

    /// The post's location in shard `side`: `posts/$p` or `user-posts/$a/$p`.
    func base(_ post: Int, _ side: Int) -> [Key] {
        side == 0
            ? [Key(unchecked: "posts"), self.postKeys[post]]
            : [Key(unchecked: "user-posts"), self.authorKeys[post % Self.authors], self.postKeys[post]]
    }

    /// The subtree the view takes for the post in shard `side` (the shard depth: two keys).
    func subtree(_ post: Int, _ side: Int) -> Path { Path(keys: Array(self.base(post, side).prefix(2))) }

    init() {
        for post in 0..<Self.posts {
            let value = Node(
                children: ChildMap(sortedUniqueElements: [
                    (Key(unchecked: "author"), Node(.string("r0000000-a\(post % Self.authors)"))),
                    (Key(unchecked: "starCount"), Node(.int(0))),
                    (Key(unchecked: "title"), Node(.string("Post \(post) of run r0000000"))),
                ]))
            for side in 0..<2 { self.shards[side].set(value, at: Path(keys: self.base(post, side))) }
        }
    }

    /// One star or un-star of a random post by a random user: in each shard, the flag and the count in one write,
    /// the count an increment the apply adds where it writes it (`Node.apply(_:incrementing:)`, as the write loop's
    /// leader does while no tree holds a huge number).
    mutating func star() -> Int {
        let (post, user) = (self.sequence.next(below: Self.posts), self.sequence.next(below: Self.users))
        let starring = !self.starred[post][user]
        self.starred[post][user] = starring
        self.counts[post] += starring ? 1 : -1
        var increments = TreeEdit.Increments()
        increments.insert(1)
        for side in 0..<2 {
            let base = self.base(post, side)
            var edits: [TreeEdit] = [
                .set(
                    Path(keys: base + [Key(unchecked: "stars"), self.userKeys[user]]),
                    starring ? Node(.bool(true)) : .empty),
                .set(Path(keys: base + [Key(unchecked: "starCount")]), Node(.int(starring ? 1 : -1))),
            ]
            self.shards[side].apply(&edits, incrementing: increments)
        }
        return post
    }

    /// Whether every post's count in both shards is its stars.
    func countsHold() -> Bool {
        (0..<Self.posts).allSatisfy { post in
            (0..<2).allSatisfy { side in
                let path = Path(keys: self.base(post, side) + [Key(unchecked: "starCount")])
                return self.shards[side].node(at: path) == Node(.int(Int64(self.counts[post])))
            }
        }
    }

    /// `count` stars in turns of `perTurn`; at each turn's end the touched subtrees go to the view.
    mutating func run(_ count: Int, perTurn: Int) {
        var done = 0
        while done < count {
            var touched = Set<Int>()
            for _ in 0..<min(perTurn, count - done) { touched.insert(self.star()) }
            done += perTurn
            var taken: [Path: Node] = [:]
            for post in touched {
                for side in 0..<2 {
                    let path = self.subtree(post, side)
                    taken[path] = self.shards[side].node(at: path)
                }
            }
            for (path, node) in taken { self.view.set(node, at: path) }
            self.held = taken
        }
    }
}

let arguments = CommandLine.arguments.dropFirst().map { Int($0) }
let warm = arguments.first.flatMap { $0 } ?? 20_000
let measured = arguments.dropFirst().first.flatMap { $0 } ?? 100_000
let perTurn = arguments.dropFirst(2).first.flatMap { $0 } ?? 35
var model = StarModel()
model.run(warm, perTurn: perTurn)
let start = threadSeconds()
model.run(measured, perTurn: perTurn)
let seconds = threadSeconds() - start
let stored = model.counts.reduce(0, +)
guard model.countsHold() else { fatalError("a post's count is not its stars") }
if measured > 0 {
    print(
        "\(measured) stars in turns of \(perTurn): \((seconds / Double(measured) * 1e9).rounded()) ns a star (\(stored) stars stored)"
    )
}
