import HearthCore

/// Combining transaction values into the one `put` a queue is sent as.
extension WriteValue {
    /// Puts `value` at `relative` below this value, replacing what was there, server values included.
    mutating func place(_ value: WriteValue, at relative: Path) {
        self.node.set(value.node, at: relative)
        self.placeholders.removeAll { relative.contains($0.path) }
        self.pendingPriorities = self.pendingPriorities.filter { !relative.contains($0.key) }
        for placeholder in value.placeholders {
            var moved = placeholder
            moved.path = relative.appending(placeholder.path)
            self.placeholders.append(moved)
        }
        for (path, priority) in value.pendingPriorities {
            self.pendingPriorities[relative.appending(path)] = priority
        }
        self.sourceJSON = nil
    }
}
