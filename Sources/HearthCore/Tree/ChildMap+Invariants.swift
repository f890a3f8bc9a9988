/// Structural self-checks for tests: each check names the invariant that broke and the node's state.
extension ChildMap {
    /// Verifies the B+tree and stops the process with a description when it is broken; see `invariantViolation()`.
    /// - Complexity: O(n).
    package func checkInvariants() {
        if let violation = self.invariantViolation() {
            preconditionFailure(violation)
        }
    }

    /// A description of the first broken invariant, or `nil` when the map is sound, so property tests can report
    /// their seed instead of crashing.
    ///
    /// Checks: keys strictly ascending across the whole map; no empty child nodes; a small map holds at most
    /// `maximumFill` elements; a tree's root is an inner node with at least two children; every other tree node holds
    /// between `minimumFill` and `maximumFill` entries; all leaves sit at one depth; inner keys equal their children's
    /// smallest keys; subtree counts add up.
    /// - Complexity: O(n).
    package func invariantViolation() -> String? {
        var previous: Key?
        do {
            switch self.storage {
            case .elements(let elements):
                if elements.count > TreeNode.maximumFill {
                    return "ChildMap small map overfull in state count=\(elements.count)"
                }
                try TreeNode.checkElements(elements, previous: &previous)
            case .tree(let root):
                if root.isLeaf || root.fill < 2 {
                    return "ChildMap tree root is not an inner node of two or more children in state "
                        + "fill=\(root.fill) count=\(root.count) isLeaf=\(root.isLeaf)"
                }
                _ = try root.checkInvariants(isRoot: true, previous: &previous)
            }
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
                self.keys.isEmpty && self.count == self.fill,
                "leaf header disagrees (keys=\(self.keys.count))"
            )
            try Self.checkElements((0..<self.fill).map(self.element(at:)), previous: &previous)
            return 1
        }
        try require(self.keys.count == self.fill, "inner node keys disagree (keys=\(self.keys.count))")
        var height: Int?
        var total = 0
        for (key, child) in zip(self.keys, (0..<self.fill).map(self.child(at:))) {
            try require(key == child.minimumKey, "separator \(key) is not its child's smallest key")
            let childHeight = try child.checkInvariants(isRoot: false, previous: &previous)
            try require(height == nil || height == childHeight, "leaves at uneven depth")
            height = childHeight
            total += child.count
        }
        try require(total == self.count, "count \(self.count) but children hold \(total)")
        return (height ?? 0) + 1
    }

    /// Checks that `elements` hold no empty node and ascend strictly, carrying the last key seen through `previous`.
    fileprivate static func checkElements(
        _ elements: [ChildMap.Entry],
        previous: inout Key?
    ) throws(ChildMapInvariantViolation) {
        for entry in elements {
            let (key, node) = (entry.key, entry.node)
            if let previous, !(previous < key) {
                throw ChildMapInvariantViolation(message: "ChildMap keys out of order: \(previous) then \(key)")
            }
            if node.isEmpty {
                throw ChildMapInvariantViolation(message: "ChildMap holds an empty node at \(key)")
            }
            previous = key
        }
    }
}
