import HearthCore
import HearthWire
import Synchronization
import Testing

@testable import HearthDatabase
@testable import HearthFrontEnds
@testable import HearthServer

/// The default listens at one path hear each change through their group (`SharedListenGroup`): every member once,
/// in commit order, from one set of buffers, and none a change its starting value already holds.
@Suite struct WireListenGroupTests {
    /// A transport that keeps what it was asked to send.
    private final class RecordingTransport: WireTransport {
        let sent = Mutex<[WireOutbound]>([])

        func send(_ message: WireOutbound) -> Bool {
            self.sent.withLock { $0.append(message) }
            return true
        }

        func close(reason: String) {}
        func closeForShutdown() {}
        func ping() {}

        var messages: [[UInt8]] { self.sent.withLock { $0.map(\.message) } }
    }

    private let room = Fixture.path("room")

    private func group() -> any ListenerGroup {
        self.listen(RecordingTransport()).makeGroup()
    }

    private func listen(_ transport: RecordingTransport, tag: Int64? = nil) -> WireListen {
        WireListen(
            namespace: "default", path: self.room, query: nil, tag: tag, transport: transport, evaluate: { $1 })
    }

    /// A change setting `room/<key>` to `value`, the `sequence`th the view applied.
    private static func change(_ key: String, _ value: Int64, sequence: UInt64, in root: inout Node) -> CommittedChange
    {
        let old = root
        let mutation = ResolvedMutation.set(Fixture.path("room/\(key)"), Node(.int(value)))
        mutation.apply(to: &root)
        return CommittedChange(
            namespace: "default", mutations: [mutation], sequence: sequence, oldRoot: old, newRoot: root)
    }

    private static func push(_ path: String, _ value: Int64) -> [UInt8] {
        WireServerMessage.dataPush(path: Fixture.path(path), data: .node(Node(.int(value))), tag: nil).encoded()
    }

    private static func initial(_ node: Node) -> [UInt8] {
        WireServerMessage.dataPush(path: Fixture.path("room"), data: .node(node), tag: nil).encoded()
    }

    @Test func everyMemberHearsEachChangeOnceInOrderFromOneBuffer() {
        let group = self.group()
        let transports = (0..<3).map { _ in RecordingTransport() }
        for transport in transports {
            let listen = self.listen(transport)
            #expect(group.add(listen, after: 0))
            #expect(listen.start(root: .empty))
        }
        var root = Node.empty
        for sequence in 1...4 {
            group.changed(Self.change("m\(sequence)", Int64(sequence), sequence: UInt64(sequence), in: &root))
        }
        let expected = [Self.initial(.empty)] + (1...4).map { Self.push("room/m\($0)", Int64($0)) }
        for transport in transports { #expect(transport.messages == expected) }
        let first = transports[0].sent.withLock { $0[1] }
        #expect(transports.allSatisfy { $0.sent.withLock { $0[1] } === first }, "one message object for all")
    }

    @Test func aMemberHearsOnlyChangesAfterItsStartingRoot() {
        let group = self.group()
        var root = Node.empty
        let early = Self.change("a", 1, sequence: 1, in: &root)
        let late = RecordingTransport()
        let listen = self.listen(late)
        #expect(group.add(listen, after: 1))
        #expect(!group.add(listen, after: 5), "a member joins once, with its first starting point")
        #expect(listen.start(root: root))
        group.changed(early)
        group.changed(Self.change("b", 2, sequence: 2, in: &root))
        let startingValue = Node.empty.setting(Node(.int(1)), at: Fixture.path("a"))
        #expect(
            late.messages == [Self.initial(startingValue), Self.push("room/b", 2)],
            "the change its starting value held is not heard again")
    }

    @Test func pushesHeardBeforeStartFollowTheInitialValue() {
        let group = self.group()
        let transport = RecordingTransport()
        let listen = self.listen(transport)
        #expect(group.add(listen, after: 0))
        var root = Node.empty
        group.changed(Self.change("a", 1, sequence: 1, in: &root))
        #expect(transport.messages.isEmpty, "nothing before the initial value")
        #expect(listen.start(root: .empty))
        #expect(transport.messages == [Self.initial(.empty), Self.push("room/a", 1)])
    }

    @Test func stoppedAndRemovedMembersHearNothingAndTheRestStillDo() {
        let group = self.group()
        let transports = (0..<3).map { _ in RecordingTransport() }
        let listens = transports.map { self.listen($0) }
        for listen in listens {
            #expect(group.add(listen, after: 0))
            #expect(listen.start(root: .empty))
        }
        listens[0].stop()
        #expect(group.remove(listens[0]))
        #expect(!group.remove(listens[0]), "a second removal finds nothing")
        listens[1].stop()
        var root = Node.empty
        group.changed(Self.change("a", 1, sequence: 1, in: &root))
        #expect(transports[0].messages.count == 1)
        #expect(transports[1].messages.count == 1)
        #expect(transports[2].messages == [Self.initial(.empty), Self.push("room/a", 1)])
        #expect(group.remove(listens[1]) && group.remove(listens[2]))
        #expect(group.isEmpty)
    }

    /// A put of the whole listened value (a transaction's) is pushed as the few paths it changed, an `m`; one that
    /// changes more than the merge limit, or the value's kind, as the whole value.
    @Test func aReplacedValueIsPushedAsItsChangesWhenTheyAreFew() {
        let group = self.group()
        let transport = RecordingTransport()
        let listen = self.listen(transport)
        #expect(group.add(listen, after: 0))
        func stars(_ prefix: String) -> Node {
            var map = ChildMap()
            for user in 0..<40 { map.update(Key(unchecked: "\(prefix)\(user)"), with: Node(.bool(true))) }
            return Node(children: map)
        }
        let full = stars("u")
        var root = Node.empty.setting(full, at: self.room)
        #expect(listen.start(root: root))
        var sequence: UInt64 = 0
        func put(_ value: Node) {
            let old = root
            let mutation = ResolvedMutation.set(self.room, value)
            mutation.apply(to: &root)
            sequence += 1
            group.changed(
                CommittedChange(
                    namespace: "default", mutations: [mutation], sequence: sequence, oldRoot: old, newRoot: root))
        }
        let toggled = full.setting(.empty, at: Fixture.path("u7")).setting(Node(.int(1)), at: Fixture.path("count"))
        put(toggled)
        let merge = WireServerMessage.mergePush(
            path: self.room,
            changes: [
                WireMergeChange(relative: Fixture.path("count"), data: .node(Node(.int(1)))),
                WireMergeChange(relative: Fixture.path("u7"), data: .node(.empty)),
            ],
            tag: nil)
        let renamed = stars("v")
        put(renamed)
        put(Node(.int(5)))
        #expect(
            transport.messages == [
                Self.initial(full), merge.encoded(), Self.initial(renamed),
                WireServerMessage.dataPush(path: self.room, data: .node(Node(.int(5))), tag: nil).encoded(),
            ])
    }

    @Test func aTaggedListenHearsOnItsOwn() {
        let transport = RecordingTransport()
        #expect(self.listen(transport, tag: 4).groupKind == nil)
        #expect(self.listen(transport).groupKind == "wire")
    }
}
