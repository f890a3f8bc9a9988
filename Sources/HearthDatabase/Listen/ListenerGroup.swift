import HearthCore

/// A listener that may hear changes through a group of listeners like it.
///
/// Many clients usually listen to one location the same way (a chat room, a leaderboard), and then their events
/// for a change are equal. The registry keeps such listeners in one `ListenerGroup` per path and kind, which it
/// matches against each change once; the group makes the events once and hands the same buffers to each member
/// (`SharedListenGroup`), so the cost per further listener is the hand-off alone.
package protocol GroupedChangeListener: ChangeListener {
    /// What the group hands its members: one change's events, made once.
    associatedtype Message: Sendable

    /// Listeners at one path with equal kinds hear equal events; `nil` for one that hears changes on its own (its
    /// events depend on state of its own, such as a query's window).
    var groupKind: String? { get }
    /// A new, empty group for listeners like this one, at its path.
    func makeGroup() -> any ListenerGroup
    /// Takes one change's events from its group (commit thread, in commit order).
    func deliver(_ messages: [Message])
}

/// Listeners at one path that hear every change the same way (see `GroupedChangeListener`). The registry calls
/// `add` and `remove` under the read view's lock; `changed` runs on the commit thread.
package protocol ListenerGroup: ChangeListener {
    /// Adds a member whose starting root includes every change up to `sequence` (`CommittedChange.sequence`): it
    /// hears only later ones, even of a change the group was already handed. Returns false when it was a member.
    func add(_ member: any GroupedChangeListener, after sequence: UInt64) -> Bool
    /// Removes a member; returns whether it was one.
    func remove(_ member: any GroupedChangeListener) -> Bool
    /// Whether no member is left.
    var isEmpty: Bool { get }
    /// Calls `body` for every member.
    func forEachMember(_ body: (any ChangeListener) -> Void)
}
