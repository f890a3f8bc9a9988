import HearthCore
import HearthWire
import Testing

@testable import Hearth

@Suite struct SyncEngineListenTests {
    private func key(_ path: String, _ query: QuerySpec? = nil, tag: Int64? = nil) throws -> ListenKey {
        ListenKey(path: try SyncFixtures.path(path), query: query, tag: tag)
    }

    /// A listener's first listen goes out untagged with an empty hash; the data pushed at its location completes
    /// it (the answer that follows adds nothing).
    @Test func listenThenDataThenAnswer() throws {
        var probe = EngineProbe()
        try probe.listen(1, "list")
        #expect(probe.last.commands == [.listen(try self.key("list"), hash: "")])
        #expect(probe.lastEvents(1).isEmpty)
        try probe.push("list", #"{"a": 1, "b": 2}"#)
        #expect(probe.lastEvents(1) == ["added a after - 1", "added b after a 2", #"value {"a":1,"b":2}"#])
        try probe.answer("list")
        #expect(probe.lastEvents(1).isEmpty)
    }

    /// Data pushed below a listen's location shows the children it covers wholly, with no value until answered.
    @Test func dataBelowTheLocationIsPartial() throws {
        var probe = EngineProbe()
        try probe.listen(1, "list")
        try probe.push("list/a", "1")
        #expect(probe.lastEvents(1) == ["added a after - 1"])
        try probe.push("list", #"{"a": 1, "b": 2}"#)
        try probe.answer("list")
        #expect(probe.lastEvents(1).isEmpty)
        #expect(probe.engine.server.tree.isComplete(at: try SyncFixtures.path("list")))
    }

    /// An answer that comes without data says the server holds nothing there (listens carry the empty hash);
    /// data that came meanwhile through other listens (which the server may since have dropped) gives way to it.
    @Test func anAnswerWithoutDataMeansTheHashedData() throws {
        var probe = EngineProbe()
        try probe.listen(1, "list")
        try probe.push("list/a", "1")
        #expect(probe.lastEvents(1) == ["added a after - 1"])
        try probe.answer("list")
        #expect(probe.lastEvents(1) == ["removed a", "value null"])
    }

    /// An empty location is answered with no push at all: the answer alone completes it as null.
    @Test func anEmptyLocationRaisesNullValue() throws {
        var probe = EngineProbe()
        try probe.listen(1, "nothing")
        try probe.answer("nothing")
        #expect(probe.lastEvents(1) == ["value null"])
    }

    /// A second listener on a complete view hears the current state at once, and no new listen goes out.
    @Test func aSecondListenerHearsTheCache() throws {
        var probe = EngineProbe()
        try probe.listen(1, "list")
        try probe.push("list", #"{"a": 1}"#)
        try probe.answer("list")
        try probe.listen(2, "list", kinds: [.value])
        #expect(probe.last.commands.isEmpty)
        #expect(probe.lastEvents(2) == [#"value {"a":1}"#])
    }

    /// A listen above covers those below: the lower listen is dropped after the upper one is asked for, and asked
    /// for again when the upper one goes.
    @Test func listensAboveCoverListensBelow() throws {
        var probe = EngineProbe()
        try probe.listen(1, "a/b")
        try probe.listen(2, "a")
        #expect(probe.last.commands == [.listen(try self.key("a"), hash: ""), .unlisten(try self.key("a/b"))])
        try probe.push("a", #"{"b": {"c": 1}}"#)
        try probe.answer("a")
        #expect(probe.lastEvents(1).isEmpty)
        probe.record(probe.engine.removeListener(ListenerID(2)))
        #expect(probe.last.commands == [.listen(try self.key("a/b"), hash: ""), .unlisten(try self.key("a"))])
        #expect(probe.engine.server.tree.isComplete(at: try SyncFixtures.path("a/b")))
        #expect(!probe.engine.server.tree.isComplete(at: try SyncFixtures.path("a")))
    }

    /// A filtered query rides a tagged listen unless a complete listen covers its location.
    @Test func filteredQueriesAreTagged() throws {
        var probe = EngineProbe()
        let query = try QuerySpec(index: .key, limit: .last(2))
        try probe.listen(1, "list", query: query)
        #expect(probe.last.commands == [.listen(try self.key("list", query, tag: 1), hash: "")])
        try probe.listen(2, "list")
        #expect(
            probe.last.commands == [
                .listen(try self.key("list"), hash: ""), .unlisten(try self.key("list", query, tag: 1)),
            ]
        )
    }

    /// Tagged data goes to its query's window only, and the tagged answer completes the query.
    @Test func taggedDataFillsTheWindow() throws {
        var probe = EngineProbe()
        let query = try QuerySpec(index: .key, limit: .last(2))
        try probe.listen(1, "list", query: query)
        try probe.push("list", #"{"b": 2, "c": 3}"#, tag: 1)
        #expect(probe.lastEvents(1) == ["added b after - 2", "added c after b 3"])
        try probe.answer("list", query: query, tag: 1)
        #expect(probe.lastEvents(1) == [#"value {"b":2,"c":3}"#])
        try probe.push("list", #"{"c": 3, "d": 4}"#, tag: 1)
        #expect(probe.lastEvents(1) == ["removed b", "added d after c 4", #"value {"c":3,"d":4}"#])
        #expect(!probe.engine.server.tree.isComplete(at: try SyncFixtures.path("list")))
    }

    /// A failed listen cancels its listeners, which hear nothing more.
    @Test func aRefusedListenCancels() throws {
        var probe = EngineProbe()
        try probe.listen(1, "secret")
        probe.server(.listenAnswered(try self.key("secret"), .failure(.permissionDeniedError)))
        #expect(probe.last.effects == [.cancelled(ListenerID(1), .permissionDeniedError)])
        #expect(probe.engine.views.isEmpty)
        #expect(probe.engine.listens.isEmpty)
        try probe.push("secret", "1")
        #expect(probe.last.effects.isEmpty)
    }

    @Test func aRevokedListenCancels() throws {
        var probe = EngineProbe()
        try probe.listen(1, "a")
        try probe.answer("a")
        probe.server(.listenRevoked(path: try SyncFixtures.path("a"), query: nil))
        #expect(probe.last.effects == [.cancelled(ListenerID(1), SyncErrors.revoked)])
    }

    /// Removing the last listener unlistens and forgets the data.
    @Test func removingTheLastListenerForgetsTheData() throws {
        var probe = EngineProbe()
        try probe.listen(1, "a")
        try probe.push("a", "1")
        try probe.answer("a")
        probe.record(probe.engine.removeListener(ListenerID(1)))
        #expect(probe.last.commands == [.unlisten(try self.key("a"))])
        #expect(probe.engine.server.tree == .unknown)
    }

    /// `.info` is answered locally: connected flips both ways, the offset is the server's.
    @Test func infoIsLocal() throws {
        var probe = EngineProbe()
        try probe.listen(1, ".info/connected", kinds: [.value])
        try probe.listen(2, ".info/serverTimeOffset", kinds: [.value])
        #expect(probe.commands.isEmpty)
        #expect(probe.effects.count == 2)
        probe.server(.connected(serverTimeOffsetMilliseconds: 250))
        #expect(probe.lastEvents(1) == ["value true"])
        #expect(probe.lastEvents(2) == ["value 250"])
        probe.server(.disconnected)
        #expect(probe.lastEvents(1) == ["value false"])
        #expect(probe.lastEvents(2).isEmpty)
    }

    /// Deeper views raise before the views above them.
    @Test func deeperViewsRaiseFirst() throws {
        var probe = EngineProbe()
        try probe.listen(1, "a", kinds: [.value])
        try probe.listen(2, "a/b", kinds: [.value])
        try probe.push("a", #"{"b": 1}"#)
        let order = probe.last.effects.compactMap { effect -> Int64? in
            if case .event(let id, _) = effect { return id.rawValue }
            return nil
        }
        #expect(order == [2, 1])
    }
}

@Suite struct SyncEngineKeepSyncedTests {
    /// `keepSynced` listens with no listener, keeps the data after the last listener goes, and lets go when off.
    @Test func keepSyncedHoldsTheListen() throws {
        var probe = EngineProbe()
        let path = try SyncFixtures.path("a")
        let key = ListenKey(path: path, query: nil, tag: nil)
        probe.record(probe.engine.keepSynced(path, true))
        #expect(probe.last.commands == [.listen(key, hash: "")])
        probe.record(probe.engine.keepSynced(path, true))
        #expect(probe.last.commands.isEmpty)
        try probe.listen(1, "a")
        try probe.push("a", "1")
        probe.record(probe.engine.removeListener(ListenerID(1)))
        #expect(probe.last.commands.isEmpty)
        #expect(probe.engine.server.tree.isComplete(at: path))
        probe.record(probe.engine.keepSynced(path, false))
        #expect(probe.last.commands == [.unlisten(key)])
        probe.record(probe.engine.keepSynced(path, false))
        #expect(probe.last.commands.isEmpty)
    }
}

@Suite struct SyncEngineListenAnswerTests {
    /// Other pushes may come between a listen's data and its answer: the data still counts.
    @Test func dataBeforeTheAnswerCountsThoughOtherPushesCameBetween() throws {
        var probe = EngineProbe()
        try probe.listen(1, "a")
        try probe.listen(2, "b")
        try probe.push("a", "1")
        try probe.push("b", "2")
        try probe.answer("a")
        #expect(probe.engine.server.tree.node == (try SyncFixtures.node(#"{"a": 1, "b": 2}"#)))
    }

    /// After a reconnect the repeated listen is answered again, with its data first.
    @Test func aRepeatedListenAfterAReconnect() throws {
        var probe = EngineProbe()
        try probe.listen(1, "a", kinds: [.value])
        try probe.push("a", "1")
        try probe.answer("a")
        probe.server(.disconnected)
        probe.server(.connected(serverTimeOffsetMilliseconds: 0))
        try probe.push("a", "2")
        try probe.answer("a")
        #expect(probe.lastEvents(1).isEmpty)
        #expect(probe.engine.server.tree.node == (try SyncFixtures.node(#"{"a": 2}"#)))
    }
}
