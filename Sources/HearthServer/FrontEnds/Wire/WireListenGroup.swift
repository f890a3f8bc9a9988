import HearthCore
import Synchronization

/// Every default (untagged) wire listen of the node at one path of one namespace.
///
/// A default listen's pushes depend on its path alone, so the group makes each change's pushes once, frames them
/// once, and hands the same buffers to each member, whose transport queues them (`WireListen.deliver`). Members
/// join and leave under the read view's lock; a member hears only the changes after the root it started from.
final class WireListenGroup: ListenerGroup {
    /// The `groupKind` of the listens it holds.
    static let kind = "wire"

    let namespace: String
    let path: Path
    private let members = Mutex(Members())

    private struct Member {
        let listen: WireListen
        /// The sequence of the last change the member's starting root includes.
        let after: UInt64
    }

    /// The members in an array the commit thread takes in O(1) (a shared copy), with each one's place in it.
    private struct Members {
        var list: [Member] = []
        var positions: [ObjectIdentifier: Int] = [:]
    }

    init(namespace: String, path: Path) {
        self.namespace = namespace
        self.path = path
    }

    func add(_ member: any GroupedChangeListener, after sequence: UInt64) {
        guard let listen = member as? WireListen else {
            preconditionFailure("A \(type(of: member)) was put in a group of wire listens (group kind \(Self.kind)).")
        }
        self.members.withLock { members in
            let id = ObjectIdentifier(listen)
            guard members.positions[id] == nil else { return }
            members.positions[id] = members.list.count
            members.list.append(Member(listen: listen, after: sequence))
        }
    }

    func remove(_ member: any GroupedChangeListener) -> Bool {
        self.members.withLock { members in
            guard let position = members.positions.removeValue(forKey: ObjectIdentifier(member)) else { return false }
            let last = members.list.removeLast()
            if position < members.list.count {
                members.list[position] = last
                members.positions[ObjectIdentifier(last.listen)] = position
            }
            return true
        }
    }

    var isEmpty: Bool { self.members.withLock { $0.list.isEmpty } }

    func forEachMember(_ body: (any ChangeListener) -> Void) {
        for member in self.members.withLock({ $0.list }) { body(member.listen) }
    }

    func changed(_ change: CommittedChange) {
        let members = self.members.withLock { $0.list }
        let pushes = WireListen.defaultPushes(for: change, at: self.path).map(WireOutbound.init)
        guard !pushes.isEmpty else { return }
        for member in members where member.after < change.sequence { member.listen.deliver(pushes) }
    }
}
