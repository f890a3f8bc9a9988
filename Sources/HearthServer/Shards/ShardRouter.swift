public import HearthCore

/// Decides which virtual shard owns a path, and cuts values along shard lines.
///
/// A namespace's tree is cut into `shardCount` virtual shards. A path at depth ≥ `shardDepth` belongs to the shard
/// chosen by a stable hash (FNV-1a, identical on every node and every run) of the namespace and its first
/// `shardDepth` keys, so `/posts/p1/stars/u9` and `/posts/p1/starCount` share a shard. Shallower paths are the
/// **spine**: they belong to every shard, so writing one is a multi-shard transaction. Shard trees hold only the
/// subtrees rooted at depth `shardDepth`; leaves and priorities on the spine live in the read view (see
/// docs/architecture.md, "Shards hold only subtrees").
public struct ShardRouter: Sendable {
    public let shardCount: Int
    public let shardDepth: Int

    public init(shardCount: Int, shardDepth: Int) {
        precondition(shardCount >= 1 && shardDepth >= 1, "shardCount and shardDepth must be at least 1")
        self.shardCount = shardCount
        self.shardDepth = shardDepth
    }

    /// True for paths shallower than the shard depth.
    public func isSpine(_ path: Path) -> Bool { path.count < self.shardDepth }

    /// The shard owning `path`, or `nil` for a spine path.
    public func shard(namespace: String, path: Path) -> Int? {
        guard path.count >= self.shardDepth else { return nil }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func mix(_ bytes: String.UTF8View) {
            for byte in bytes {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01B3
            }
        }
        mix(namespace.utf8)
        for key in path.keys.prefix(self.shardDepth) {
            hash ^= 0x2F
            hash &*= 0x0000_0100_0000_01B3
            mix(key.string.utf8)
        }
        return Int(hash % UInt64(self.shardCount))
    }

    /// The shards a mutation touches: one for a deep path, all for a spine path.
    public func shards(namespace: String, mutation path: Path) -> [Int] {
        if let shard = self.shard(namespace: namespace, path: path) { return [shard] }
        return Array(0..<self.shardCount)
    }

    /// The part of `value` (to be set at spine path `path`) that lies in `shard`: the depth-`shardDepth` subtrees
    /// the shard owns, inside bare spine containers (no spine leaves, no spine priorities).
    /// - Complexity: O(number of spine-level children), sharing every owned subtree.
    public func restrict(_ value: Node, at path: Path, namespace: String, to shard: Int) -> Node {
        if path.count >= self.shardDepth {
            return self.shard(namespace: namespace, path: path) == shard ? value : .empty
        }
        var kept: [(key: Key, node: Node)] = []
        for (key, child) in value.children {
            let restricted = self.restrict(child, at: path.appending(key), namespace: namespace, to: shard)
            if !restricted.isEmpty { kept.append((key, restricted)) }
        }
        return Node(children: ChildMap(sortedUniqueElements: kept))
    }

    /// Splits a whole namespace tree into one tree per shard in a single ordered pass (used after recovery).
    /// - Complexity: O(number of nodes above and at the shard depth).
    public func split(_ root: Node, namespace: String) -> [Node] {
        (0..<self.shardCount).map { self.restrict(root, at: .root, namespace: namespace, to: $0) }
    }
}
