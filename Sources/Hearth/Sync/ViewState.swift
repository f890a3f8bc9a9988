package import HearthCore

/// A view's listeners and what they were last shown: Firebase's `View` with its event registrations.
package struct ViewState: Sendable {
    /// The listeners, in the order they were added, with the kinds of events each asked for.
    package var registrations: [(id: ListenerID, kinds: Set<DataEventKind>)] = []
    /// Transactions that keep this view alive so the server keeps its data current.
    package var pins = 0
    /// The tag its filtered listen rides with; nil for views that load all data.
    package var tag: Int64?
    /// What the view showed after the last change.
    package var shown: ViewSnapshot

    package init(tag: Int64?, shown: ViewSnapshot) {
        self.tag = tag
        self.shown = shown
    }

    package var isUnused: Bool { self.registrations.isEmpty && self.pins == 0 }
}

/// What one view shows: its children in query order, its node, and whether it is complete (only a complete view
/// raises `value`).
package struct ViewSnapshot: Sendable, Equatable {
    package var node: Node
    package var ordered: [ChildMap.Element]
    package var isComplete: Bool

    package init(node: Node, ordered: [ChildMap.Element], isComplete: Bool) {
        self.node = node
        self.ordered = ordered
        self.isComplete = isComplete
    }

    package static let nothing = ViewSnapshot(node: .empty, ordered: [], isComplete: false)

    package static func == (lhs: ViewSnapshot, rhs: ViewSnapshot) -> Bool {
        lhs.isComplete == rhs.isComplete && lhs.node == rhs.node
    }
}
