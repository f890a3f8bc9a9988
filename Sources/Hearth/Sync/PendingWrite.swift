package import HearthCore

/// One user write the server has not confirmed yet, as the client shows it (server values already estimated).
package struct PendingWrite: Sendable, Equatable {
    package var id: WriteID
    package var path: Path
    package var change: PendingChange
    /// False for a transaction run with local events off: it counts for later transactions, never for views.
    package var isVisible: Bool
    /// True once the server took the write while a listen near it was still unanswered: it stays shown, never to
    /// be sent again, until that listen's data arrives.
    package var isConfirmed = false

    package init(id: WriteID, path: Path, change: PendingChange, isVisible: Bool) {
        self.id = id
        self.path = path
        self.change = change
        self.isVisible = isVisible
    }
}

/// What a pending write does at its path.
package enum PendingChange: Sendable, Equatable {
    /// `setValue` / `removeValue` (an empty node) / a transaction's value.
    case overwrite(Node)
    /// `updateChildValues`: each relative path now holds its node.
    case merge([MergeEntry])
    /// `setPriority`.
    case priority(Priority?)
}

/// One path of a multi-path update, relative to the update's location.
package struct MergeEntry: Sendable, Equatable {
    package var relative: Path
    package var node: Node

    package init(relative: Path, node: Node) {
        self.relative = relative
        self.node = node
    }
}

/// The pending writes in the order they were made: Firebase's `WriteTree`, layered over the server cache.
package struct WriteQueue: Sendable {
    package private(set) var writes: [PendingWrite] = []

    package init() {}

    package mutating func append(_ write: PendingWrite) {
        precondition(
            self.writes.last.map { $0.id < write.id } ?? true,
            "WriteQueue.append out of order in state last=\(String(describing: self.writes.last?.id)) new=\(write.id)"
        )
        self.writes.append(write)
    }

    /// Removes and returns the write with `id`, or nil when it is not pending.
    package mutating func remove(_ id: WriteID) -> PendingWrite? {
        guard let index = self.writes.firstIndex(where: { $0.id == id }) else { return nil }
        return self.writes.remove(at: index)
    }

    /// Marks the write with `id` as taken by the server.
    package mutating func confirm(_ id: WriteID) {
        guard let index = self.writes.firstIndex(where: { $0.id == id }) else { return }
        self.writes[index].isConfirmed = true
    }

    package func write(_ id: WriteID) -> PendingWrite? {
        self.writes.first { $0.id == id }
    }

    /// `known` (what the server cache holds at `path`) with every pending write layered on, oldest first.
    /// - Parameters:
    ///   - includeHidden: also layer writes that raise no local events (transactions compute on them).
    ///   - excluding: writes to leave out (a transaction's own, when it reruns).
    package func apply(
        to known: KnownTree,
        at path: Path,
        includeHidden: Bool = false,
        excluding: Set<WriteID> = []
    ) -> KnownTree {
        var known = known
        for write in self.writes where (write.isVisible || includeHidden) && !excluding.contains(write.id) {
            switch write.change {
            case .overwrite(let node):
                Self.overwrite(&known, at: path, with: node, writtenAt: write.path)
            case .merge(let entries):
                for entry in entries {
                    Self.overwrite(&known, at: path, with: entry.node, writtenAt: write.path.appending(entry.relative))
                }
            case .priority(let priority):
                guard let relative = path.relativePath(to: write.path) else { continue }
                known.node.setPriority(priority, at: relative)
            }
        }
        return known
    }

    private static func overwrite(_ known: inout KnownTree, at path: Path, with node: Node, writtenAt target: Path) {
        if let inside = target.relativePath(to: path) {
            known = .complete(node.node(at: inside))
        } else if let below = path.relativePath(to: target) {
            known.set(node, at: below)
        }
    }
}
