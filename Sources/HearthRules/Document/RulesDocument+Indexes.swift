public import HearthCore

/// The indexes a rules file declares (`.indexOn`), which a node keeps ordered so that queries using them need no
/// scan.
extension RulesDocument {
    /// Whether `.indexOn` at the rules for `path` (named children first, then the `$wildcard`) declares `index`: a
    /// child's path for `orderByChild`, `.value` for `orderByValue`. The key and priority orders need no
    /// declaration.
    public func declares(_ index: QueryIndex, at path: Path) -> Bool {
        let name: String
        switch index {
        case .key, .priority: return true
        case .value: name = ".value"
        case .child(let child): name = child.keys.map(\.string).joined(separator: "/")
        }
        var node = self.root
        for key in path.keys {
            guard let next = node.child(key.string) else { return false }
            node = next.node
        }
        return node.indexOn.contains(name)
    }
}
