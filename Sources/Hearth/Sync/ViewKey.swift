package import HearthCore

/// One view of the data: a location and the query over it (`QuerySpec.default` for a plain reference).
package struct ViewKey: Sendable, Hashable {
    package var path: Path
    package var query: QuerySpec

    package init(path: Path, query: QuerySpec = .default) {
        self.path = path
        self.query = query
    }

    /// True for views of `.info`, which the engine answers itself and never listens to.
    package var isInfo: Bool { self.path.first == InfoData.rootKey }

    /// True when the view shows the whole location (any order, no range or limit), so it rides on an untagged
    /// listen and its value is the location's node itself.
    package var loadsAllData: Bool { self.query.loadsAllData }
}

/// The kinds of events a listener can ask for (Firebase's `DataEventType`), in the order Firebase raises them for
/// one change.
package enum DataEventKind: Int, Sendable, Hashable, CaseIterable, Comparable {
    case childRemoved
    case childAdded
    case childMoved
    case childChanged
    case value

    package static func < (lhs: DataEventKind, rhs: DataEventKind) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The shell's number for one listener (Firebase's `DatabaseHandle`).
package struct ListenerID: Sendable, Hashable, Comparable {
    package var rawValue: Int64

    package init(_ rawValue: Int64) { self.rawValue = rawValue }

    package static func < (lhs: ListenerID, rhs: ListenerID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One event to raise: what a listener's callback receives.
package struct DataEvent: Sendable, Equatable {
    package var kind: DataEventKind
    /// The snapshot's location: the view's path for `value`, the child's for child events.
    package var path: Path
    /// The snapshot's data (for `childRemoved`, the child as it was).
    package var node: Node
    /// The order the snapshot's children iterate in (the view's query index).
    package var index: QueryIndex
    /// The key of the child before this one in the view's order, for `childAdded`, `childChanged` and
    /// `childMoved`; nil for the first child and for the other kinds.
    package var previousSiblingKey: Key?

    package init(kind: DataEventKind, path: Path, node: Node, index: QueryIndex, previousSiblingKey: Key?) {
        self.kind = kind
        self.path = path
        self.node = node
        self.index = index
        self.previousSiblingKey = previousSiblingKey
    }
}
