/// The kinds of events a listener can observe, with FirebaseDatabase's names and raw values.
public enum DataEventType: Int, Sendable, Hashable, CaseIterable {
    /// A child was added (raised once for each existing child when the listener is added).
    case childAdded = 0
    /// A child was removed.
    case childRemoved = 1
    /// A child's data changed.
    case childChanged = 2
    /// A child moved in the query's order.
    case childMoved = 3
    /// The whole location's data, once when the listener is added and after every change.
    case value = 4

    /// The sync engine's name for the same kind.
    var kind: DataEventKind {
        switch self {
        case .childAdded: .childAdded
        case .childRemoved: .childRemoved
        case .childChanged: .childChanged
        case .childMoved: .childMoved
        case .value: .value
        }
    }
}

/// The number `observe` returns, for `removeObserver(withHandle:)`.
public typealias DatabaseHandle = UInt
