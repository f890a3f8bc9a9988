import HearthCore

extension Node {
    /// Roughly how many bytes of JSON this node is, counting no further than `limit` (for `WriteSizeLimit`).
    /// - Complexity: O(min(n, limit)) for a tree of n nodes.
    package func estimatedBytes(upTo limit: Int) -> Int {
        var total = 0
        var stack: [Node] = [self]
        while let node = stack.popLast(), total <= limit {
            switch node.leafValue {
            case .string(let text)?: total += text.utf8.count + 2
            case .some: total += 8
            case nil:
                for (key, child) in node.children {
                    total += key.string.utf8.count + 4
                    stack.append(child)
                    if total > limit { break }
                }
            }
        }
        return total
    }
}
