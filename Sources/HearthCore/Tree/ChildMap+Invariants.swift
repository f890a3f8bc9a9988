/// Structural self-checks for tests: each check names the invariant that broke and the node's state.
extension ChildMap {
    /// Verifies the B+tree and stops the process with a description when it is broken; see `invariantViolation()`.
    /// - Complexity: O(n).
    package func checkInvariants() {
        if let violation = self.invariantViolation() {
            preconditionFailure(violation)
        }
    }

    /// A description of the first broken invariant, or `nil` when the tree is sound, so property tests can report
    /// their seed instead of crashing.
    ///
    /// Checks: keys strictly ascending across the whole map; no empty child nodes; every non-root node holds between
    /// `minimumFill` and `maximumFill` entries; the root is neither an empty leaf nor an inner node with one child;
    /// all leaves sit at one depth; inner keys equal their children's smallest keys; subtree counts add up.
    /// - Complexity: O(n).
    package func invariantViolation() -> String? {
        guard let root = self.root else { return nil }
        if root.isLeaf, root.fill < 1 {
            return "ChildMap root leaf is empty in state count=\(root.count)"
        }
        if !root.isLeaf, root.fill < 2 {
            return "ChildMap root has one child in state count=\(root.count)"
        }
        var previous: Key?
        do {
            _ = try root.checkInvariants(isRoot: true, previous: &previous)
            return nil
        } catch {
            return error.message
        }
    }
}

/// The first broken invariant found while walking a `ChildMap`'s tree.
private struct ChildMapInvariantViolation: Error {
    let message: String
}

extension ChildMap.TreeNode {
    /// Checks this subtree, carrying the last key seen in order through `previous`; returns the subtree's height.
    fileprivate func checkInvariants(
        isRoot: Bool,
        previous: inout Key?
    ) throws(ChildMapInvariantViolation) -> Int {
        let state = "fill=\(self.fill) count=\(self.count) isLeaf=\(self.isLeaf) isRoot=\(isRoot)"
        func require(_ condition: Bool, _ message: @autoclosure () -> String) throws(ChildMapInvariantViolation) {
            if !condition {
                throw ChildMapInvariantViolation(message: "ChildMap \(message()) in state \(state)")
            }
        }
        try require(self.fill <= Self.maximumFill, "node overfull")
        try require(isRoot || self.fill >= Self.minimumFill, "node underfull")
        if self.isLeaf {
            try require(
                self.values.count == self.fill && self.children.isEmpty && self.count == self.fill,
                "leaf arrays disagree (values=\(self.values.count) children=\(self.children.count))"
            )
            for (key, value) in zip(self.keys, self.values) {
                if let previous {
                    try require(previous < key, "keys out of order: \(previous) then \(key)")
                }
                try require(!value.isEmpty, "holds an empty node at \(key)")
                previous = key
            }
            return 1
        }
        try require(
            self.children.count == self.fill && self.values.isEmpty,
            "inner node arrays disagree (children=\(self.children.count) values=\(self.values.count))"
        )
        var height: Int?
        var total = 0
        for (key, child) in zip(self.keys, self.children) {
            try require(key == child.keys.first, "separator \(key) is not its child's smallest key")
            let childHeight = try child.checkInvariants(isRoot: false, previous: &previous)
            try require(height == nil || height == childHeight, "leaves at uneven depth")
            height = childHeight
            total += child.count
        }
        try require(total == self.count, "count \(self.count) but children hold \(total)")
        return (height ?? 0) + 1
    }
}
