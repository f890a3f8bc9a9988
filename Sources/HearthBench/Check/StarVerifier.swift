public import HearthCore

/// The checks at the end of a run, on the posts as the database holds them: every post's `starCount` equals its
/// stars; with the fan-out, each post equals its author's copy; every acknowledged star is there and every
/// acknowledged un-star gone (a set check per star); and the stars total what the acknowledged operations say,
/// counting those whose answer was lost either way (Jepsen's counter check).
public struct StarVerifier: Sendable {
    public let workload: StarWorkload
    /// Whether every write also updates the author's copy (the fan-out alone), so that the two must be equal;
    /// otherwise each copy's `starCount` must still equal its own stars.
    public let checksCopies: Bool

    public init(workload: StarWorkload, checksCopies: Bool) {
        self.workload = workload
        self.checksCopies = checksCopies
    }

    /// Every violation, each naming its path; empty when the run kept every promise.
    /// - Parameters:
    ///   - posts: each post's data at `posts/$p`, by post index.
    ///   - copies: each post's data at `user-posts/$author/$p`, by post index.
    public func violations(posts: [Int: Node], copies: [Int: Node], ledger: StarLedger) -> [String] {
        var violations: [String] = []
        var total = 0
        for post in 0..<self.workload.posts {
            let path = self.workload.postPath(post)
            let data = posts[post] ?? .empty
            guard !data.isEmpty else {
                violations.append("\(path): the post is gone")
                continue
            }
            let stars = data.child(Key(unchecked: "stars")).childCount
            total += stars
            let count = Self.starCount(data)
            if count != Int64(stars) {
                violations.append("\(path)/starCount: \(count.map(String.init) ?? "not a number") but \(stars) stars")
            }
            let copy = copies[post] ?? .empty
            let copyStars = copy.child(Key(unchecked: "stars")).childCount
            if self.checksCopies, copy != data {
                violations.append("\(self.workload.copyPath(post)): differs from \(path)")
            } else if !self.checksCopies, Self.starCount(copy) != Int64(copyStars) {
                let count = Self.starCount(copy).map(String.init) ?? "not a number"
                violations.append("\(self.workload.copyPath(post))/starCount: \(count) but \(copyStars) stars")
            }
        }
        violations += self.setViolations(posts: posts, ledger: ledger)
        let bounds = ledger.totalBounds
        if !bounds.contains(total) {
            violations.append(
                "posts/\(self.workload.run)-*: \(total) stars in all, but the acknowledged operations allow "
                    + "\(bounds.lowerBound)…\(bounds.upperBound)")
        }
        return violations
    }

    /// Every star the ledger knows set must be stored, and no other of the run's users' stars (save uncertain ones).
    private func setViolations(posts: [Int: Node], ledger: StarLedger) -> [String] {
        var violations: [String] = []
        for post in 0..<self.workload.posts {
            let stars = (posts[post] ?? .empty).child(Key(unchecked: "stars"))
            for user in 0..<self.workload.users {
                let pair = StarLedger.Pair(post: post, user: user)
                guard let expected = ledger.isStarred(pair) else { continue }
                let stored = !stars.child(Key(unchecked: self.workload.userID(user))).isEmpty
                if stored != expected {
                    let path = "\(self.workload.postPath(post))/stars/\(self.workload.userID(user))"
                    violations.append(
                        expected
                            ? "\(path): an acknowledged star is missing"
                            : "\(path): set, but never acknowledged or since removed")
                }
            }
        }
        return violations
    }

    private static func starCount(_ post: Node) -> Int64? {
        switch post.child(Key(unchecked: "starCount")).leafValue {
        case .int(let count)?: count
        case .double(let count)? where count == count.rounded(): Int64(count)
        default: nil
        }
    }
}
