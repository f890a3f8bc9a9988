import HearthCore

/// The shard-depth paths a machine's latest writes named their subtrees by (`ShardChange.subtrees`), kept so that
/// the next write into one of them names it by the same path, shared (one retain), rather than by a new one cut out
/// of its own deeper path: an array of keys allocated for every write on the write loop, and freed by the commit
/// thread with the write's change. A star names two subtrees (`posts/$p`, `user-posts/$a`), and the hot ones come
/// back turn after turn.
///
/// A handful, the oldest replaced by the newest. Leader memory, never logged, and never compared: which path value
/// names a subtree changes what shares storage, never what any path says.
struct RecentSubtreePaths: Sendable {
    /// How many paths are kept: a scan of them costs a few key comparisons, each one or two words for small keys.
    static let capacity = 8
    private var paths: [Path] = []
    /// Where the next new path goes once `paths` is full.
    private var oldest = 0

    /// The path of the first `depth` keys of `written`, which has more than `depth` keys: a kept one when it is
    /// equal, else a new one, then kept in place of the oldest. A kept path of `depth` keys (a machine's spine depth
    /// is fixed, so all of them) that contains `written` is that prefix.
    /// - Complexity: O(`capacity` × `depth`) key comparisons.
    mutating func prefix(_ depth: Int, of written: Path) -> Path {
        if let kept = Self.index(of: depth, in: written, among: self.paths) { return self.paths[kept] }
        let made = Path(keys: Array(written.keys[..<depth]))
        if self.paths.count < Self.capacity {
            self.paths.append(made)
        } else {
            self.paths[self.oldest] = made
            self.oldest = (self.oldest + 1) % Self.capacity
        }
        return made
    }

    /// Where among `paths` the path of the first `depth` keys of `written` is, if it is. The paths are read from the
    /// array borrowed for the call: read from the stored property, the scan copied more of them out (a retain and a
    /// release of their keys) around its comparisons.
    private static func index(of depth: Int, in written: Path, among paths: [Path]) -> Int? {
        paths.firstIndex { $0.count == depth && $0.contains(written) }
    }
}
