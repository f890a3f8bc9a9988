package import HearthCore
import HearthSystem

/// The listeners of one kind at one path of one namespace: each change's events are made once, by `render`, and
/// the same buffers handed to every member (`GroupedChangeListener.deliver`).
///
/// Members join and leave under the read view's lock while the commit thread hands out changes; a member hears
/// only the changes after the root it started from, so each change reaches it exactly once.
package final class SharedListenGroup<Member: GroupedChangeListener>: ListenerGroup {
    package let namespace: String
    package let path: Path
    private let render: @Sendable (CommittedChange) -> [Member.Message]
    private let members = Lock(Members())

    private struct Entry {
        let member: Member
        /// The sequence of the last change the member's starting root includes.
        let after: UInt64
    }

    /// The members in an array the commit thread takes in O(1) (a shared copy), with each one's place in it.
    private struct Members {
        var list: [Entry] = []
        var positions: [ObjectIdentifier: Int] = [:]
    }

    /// - Parameter render: a change's events for every member; none for a change that leaves the path's value as
    ///   it was.
    package init(namespace: String, path: Path, render: @escaping @Sendable (CommittedChange) -> [Member.Message]) {
        self.namespace = namespace
        self.path = path
        self.render = render
    }

    package func add(_ member: any GroupedChangeListener, after sequence: UInt64) -> Bool {
        guard let member = member as? Member else {
            preconditionFailure("A \(type(of: member)) was put in a group of \(Member.self) at \(self.path).")
        }
        return self.members.withLock { members in
            let id = ObjectIdentifier(member)
            guard members.positions[id] == nil else { return false }
            members.positions[id] = members.list.count
            members.list.append(Entry(member: member, after: sequence))
            return true
        }
    }

    package func remove(_ member: any GroupedChangeListener) -> Bool {
        self.members.withLock { members in
            guard let position = members.positions.removeValue(forKey: ObjectIdentifier(member)) else { return false }
            let last = members.list.removeLast()
            if position < members.list.count {
                members.list[position] = last
                members.positions[ObjectIdentifier(last.member)] = position
            }
            return true
        }
    }

    package var isEmpty: Bool { self.members.withLock { $0.list.isEmpty } }

    package func forEachMember(_ body: (any ChangeListener) -> Void) {
        for entry in self.members.withLock({ $0.list }) { body(entry.member) }
    }

    package func changed(_ change: CommittedChange) {
        let members = self.members.withLock { $0.list }
        let messages = self.render(change)
        guard !messages.isEmpty else { return }
        for entry in members where entry.after < change.sequence { entry.member.deliver(messages) }
    }
}
