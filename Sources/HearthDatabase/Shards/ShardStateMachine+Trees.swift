import HearthCore

/// Finding a namespace's tree in `trees`.
extension ShardStateMachine {
    /// The position of `namespace`'s tree in `trees`, or nil when the shard holds none. A shard holding one
    /// namespace's tree (a database serves one namespace) compares that one name: a lookup by key hashed the whole
    /// name, two to four times a write.
    func treeIndex(of namespace: String) -> [String: Node].Index? {
        guard self.trees.count == 1 else { return self.trees.index(forKey: namespace) }
        let only = self.trees.startIndex
        return self.trees.keys[only] == namespace ? only : nil
    }

    /// `namespace`'s tree as this machine holds it (empty when it holds none).
    func tree(of namespace: String) -> Node {
        guard let index = self.treeIndex(of: namespace) else { return .empty }
        return self.trees.values[index]
    }

    /// Runs `body` on `namespace`'s tree where `trees` holds it (its nodes held only there, so edited in place), or
    /// on an empty tree stored after; a tree `body` leaves empty is removed (a shard keeps no empty tree).
    mutating func editTree(of namespace: String, _ body: (inout Node) -> Void) {
        if let index = self.treeIndex(of: namespace) {
            body(&self.trees.values[index])
            if self.trees.values[index].isEmpty { self.trees.remove(at: index) }
        } else {
            var tree = Node.empty
            body(&tree)
            if !tree.isEmpty { self.trees[namespace] = tree }
        }
    }
}
