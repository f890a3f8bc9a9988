public import HearthCore
import HearthWire

/// Decides which virtual shard owns a path, and cuts values along shard lines.
///
/// A namespace's tree is cut into `shardCount` virtual shards. A path at depth ≥ `shardDepth` belongs to the shard
/// chosen by a stable hash (FNV-1a, identical on every node and every run) of the namespace and its first
/// `shardDepth` keys, so `/posts/p1/stars/u9` and `/posts/p1/starCount` share a shard. Shallower paths are the
/// **spine**: they belong to every shard, so writing one is a multi-shard transaction. A shard's tree holds the
/// subtrees rooted at depth `shardDepth` that hash to it, plus a copy of every leaf and priority on the spine (see
/// docs/architecture.md, "Shards and the spine").
///
/// A cluster whose configuration spreads its shards over fewer Raft groups (`groups` in cluster-config/README.md)
/// routes by a router whose `shardCount` is its groups: a path still hashes into one of the configuration's
/// `hashBuckets` shards, and bucket `b` belongs to shard `b mod shardCount` (its group). With as many buckets as
/// shards (every single node, and every cluster founded without `groups`) that is the hash modulo the shard count,
/// as it always was.
public struct ShardRouter: Sendable {
    public let shardCount: Int
    public let shardDepth: Int
    /// How many buckets a path hashes into before its bucket is mapped to a shard: at least `shardCount`.
    public let hashBuckets: Int

    /// - Parameter hashBuckets: the buckets paths hash into (the cluster configuration's `shards` when it groups
    ///   them into fewer Raft groups); `nil`, or fewer than `shardCount`, means one bucket per shard.
    public init(shardCount: Int, shardDepth: Int, hashBuckets: Int? = nil) {
        precondition(shardCount >= 1 && shardDepth >= 1, "shardCount and shardDepth must be at least 1")
        self.shardCount = shardCount
        self.shardDepth = shardDepth
        self.hashBuckets = max(hashBuckets ?? shardCount, shardCount)
    }

    /// True for paths shallower than the shard depth.
    public func isSpine(_ path: Path) -> Bool { path.count < self.shardDepth }

    /// The shard owning `path`, or `nil` for a spine path.
    public func shard(namespace: String, path: Path) -> Int? {
        self.shard(namespace: ShardHash(namespace: namespace), path: path)
    }

    /// `shard(namespace:path:)` for a namespace hashed once (`ShardHash(namespace:)`): a write routes each of its
    /// mutations by its one namespace.
    func shard(namespace: ShardHash, path: Path) -> Int? {
        guard path.count >= self.shardDepth else { return nil }
        var hash = namespace
        // By index: iterating a prefix of the keys made a slice (the keys retained) and copied each key out.
        for depth in 0..<self.shardDepth { hash.append(key: path.keys[depth].string.utf8) }
        return self.shard(hash)
    }

    /// The shard owning `mutation`'s path in the namespace hashed as `namespace`, or `nil` for a spine path; the
    /// path is read where the mutation holds it (`Mutation.path` copies it out).
    func shard(namespace: ShardHash, of mutation: borrowing Mutation) -> Int? {
        switch mutation {
        case .set(let path, _), .setPriority(let path, _): self.shard(namespace: namespace, path: path)
        }
    }

    /// The shard a path at the shard depth hashes to, given the hash of its namespace and keys: its bucket, modulo
    /// the shard count.
    func shard(_ hash: ShardHash) -> Int {
        Int(hash.value % UInt64(self.hashBuckets) % UInt64(self.shardCount))
    }

    /// The shards a mutation touches: one for a deep path, all for a spine path.
    public func shards(namespace: String, mutation path: Path) -> [Int] {
        if let shard = self.shard(namespace: namespace, path: path) { return [shard] }
        return Array(0..<self.shardCount)
    }

    /// Cuts `value` (to be set at `path`) into the part each shard owns: its subtrees at the shard depth, plus a
    /// copy of every leaf and priority standing on the spine (every shard keeps the spine's leaves, see
    /// docs/architecture.md). Element `i` belongs to shard `i`; `Node.union` of the parts gives `value` back.
    /// - Complexity: one pass over the spine-level children, sharing every owned subtree.
    public func split(_ value: Node, at path: Path, namespace: String) -> [Node] {
        if path.count >= self.shardDepth {
            var parts = [Node](repeating: .empty, count: self.shardCount)
            if let shard = self.shard(namespace: namespace, path: path) { parts[shard] = value }
            return parts
        }
        if value.isLeaf { return [Node](repeating: value, count: self.shardCount) }
        var parts = [ChildMap.Builder](repeating: ChildMap.Builder(), count: self.shardCount)
        // Children at the shard depth each go to the shard their key hashes to after the parent's keys, which are
        // hashed once rather than once per child (a spine node may have millions of children).
        let childrenAreOwned = path.count + 1 >= self.shardDepth
        var parentHash = ShardHash(namespace: namespace)
        if childrenAreOwned {
            for key in path.keys { parentHash.append(key: key.string.utf8) }
        }
        for (key, child) in value.children {
            if childrenAreOwned {
                var hash = parentHash
                hash.append(key: key.string.utf8)
                parts[self.shard(hash)].append(key, child)
            } else {
                let childPath = path.appending(key)
                for (shard, part) in self.split(child, at: childPath, namespace: namespace).enumerated() {
                    parts[shard].append(key, part)
                }
            }
        }
        return parts.map { Node(children: $0.finish(), priority: value.priority) }
    }

    /// Splits a whole namespace tree into one tree per shard (used after recovery).
    public func split(_ root: Node, namespace: String) -> [Node] {
        self.split(root, at: .root, namespace: namespace)
    }
}
