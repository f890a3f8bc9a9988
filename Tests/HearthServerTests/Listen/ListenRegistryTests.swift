import HearthCore
import Synchronization
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// The registry finds every listener a change may concern (on the way down to it and under it) and no other, and
/// keeps listeners that hear alike in one group per path and kind that stands for all of them.
@Suite struct ListenRegistryTests {
    /// A listener that hears on its own.
    private final class Alone: ChangeListener {
        let namespace: String
        let path: Path

        init(_ path: String, namespace: String = "default") {
            self.namespace = namespace
            self.path = Fixture.path(path)
        }

        func changed(_ change: CommittedChange) {}
    }

    /// A listener that hears through a group of its kind (or alone, when its kind is nil).
    private final class Member: GroupedChangeListener {
        let namespace = "default"
        let path: Path
        let groupKind: String?

        init(_ path: String, kind: String?) {
            self.path = Fixture.path(path)
            self.groupKind = kind
        }

        func makeGroup() -> any ListenerGroup { Group(path: self.path) }
        func changed(_ change: CommittedChange) {}
        func deliver(_ messages: [String]) {}
    }

    private final class Group: ListenerGroup {
        let namespace = "default"
        let path: Path
        let members = Mutex<[(listener: Member, after: UInt64)]>([])

        init(path: Path) {
            self.path = path
        }

        func add(_ member: any GroupedChangeListener, after sequence: UInt64) -> Bool {
            guard let member = member as? Member else { return false }
            return self.members.withLock { members in
                guard !members.contains(where: { $0.listener === member }) else { return false }
                members.append((member, sequence))
                return true
            }
        }

        func remove(_ member: any GroupedChangeListener) -> Bool {
            self.members.withLock { members in
                guard let index = members.firstIndex(where: { $0.listener === member }) else { return false }
                members.remove(at: index)
                return true
            }
        }

        var isEmpty: Bool { self.members.withLock { $0.isEmpty } }

        func forEachMember(_ body: (any ChangeListener) -> Void) {
            for member in self.members.withLock({ $0 }) { body(member.listener) }
        }

        func changed(_ change: CommittedChange) {}
    }

    private static func ids(_ listeners: [any ChangeListener]) -> Set<ObjectIdentifier> {
        Set(listeners.map { ObjectIdentifier($0) })
    }

    @Test func aChangeReachesAncestorsAndDescendantsOnlyOnce() {
        var registry = ListenRegistry()
        let root = Alone("")
        let room = Alone("room")
        let message = Alone("room/m1")
        let deep = Alone("room/m1/text")
        let other = Alone("lobby")
        let elsewhere = Alone("room", namespace: "other")
        for listener in [root, room, message, deep, other, elsewhere] { registry.add(listener, after: 0) }
        #expect(registry.count == 6)
        let reached = registry.listeners(
            namespace: "default", touching: [Fixture.path("room/m1"), Fixture.path("room")])
        #expect(reached.count == 4, "each listener once, though two paths reach it")
        #expect(Self.ids(reached) == Self.ids([root, room, message, deep]))
        #expect(registry.listeners(namespace: "missing", touching: [.root]).isEmpty)
    }

    @Test func listenersOfOneKindAtOnePathShareAGroup() throws {
        var registry = ListenRegistry()
        let first = Member("room", kind: "wire")
        let second = Member("room", kind: "wire")
        let otherKind = Member("room", kind: "sse")
        let alone = Member("room", kind: nil)
        registry.add(first, after: 3)
        registry.add(second, after: 7)
        registry.add(otherKind, after: 7)
        registry.add(alone, after: 7)
        registry.add(second, after: 9)
        #expect(registry.count == 4, "adding a member again counts it once")

        let reached = registry.listeners(namespace: "default", touching: [Fixture.path("room/m1")])
        #expect(reached.count == 3, "one group per kind, and the listener without a kind on its own")
        let groups = reached.compactMap { $0 as? Group }
        let wire = try #require(groups.first { $0.members.withLock { $0.contains { $0.listener === first } } })
        #expect(wire.members.withLock { $0.map(\.after) } == [3, 7], "each member with the change it starts after")
        #expect(reached.contains { $0 === alone })

        var visited: [ObjectIdentifier] = []
        registry.forEach { visited.append(ObjectIdentifier($0)) }
        #expect(Set(visited) == Self.ids([first, second, otherKind, alone]), "forEach visits members, not groups")
    }

    @Test func theLastMemberToLeaveTakesItsGroupWithIt() {
        var registry = ListenRegistry()
        let first = Member("room", kind: "wire")
        let second = Member("room", kind: "wire")
        registry.add(first, after: 0)
        registry.add(second, after: 0)
        registry.remove(Member("room", kind: "wire"))
        #expect(registry.count == 2, "removing a stranger changes nothing")
        registry.remove(first)
        #expect(registry.count == 1)
        #expect(registry.listeners(namespace: "default", touching: [Fixture.path("room")]).count == 1)
        registry.remove(second)
        #expect(registry.count == 0)
        #expect(registry.listeners(namespace: "default", touching: [Fixture.path("room")]).isEmpty)
    }
}
