import HearthCore
import HearthWire
import Testing

@testable import Hearth

@Suite struct SyncEngineServerEventTests {
    /// A merge push overwrites each of its paths; children it does not name stay.
    @Test func mergePushes() throws {
        var probe = EngineProbe()
        try probe.listen(1, "list")
        try probe.push("list", #"{"a": 1, "c": 3}"#)
        let changes = [
            WireMergeChange(relative: try SyncFixtures.path("a"), data: .json(.null)),
            WireMergeChange(relative: try SyncFixtures.path("b"), data: .node(SyncFixtures.int(2))),
        ]
        probe.server(.merge(path: try SyncFixtures.path("list"), changes, tag: nil))
        #expect(probe.lastEvents(1) == ["removed a", "added b after - 2", #"value {"b":2,"c":3}"#])
    }

    /// Revoking one filtered listen cancels only its listeners.
    @Test func revokingOneQuery() throws {
        var probe = EngineProbe()
        let first = try QuerySpec(index: .key, limit: .first(1))
        let last = try QuerySpec(index: .key, limit: .last(1))
        try probe.listen(1, "list", query: first)
        try probe.listen(2, "list", query: last)
        probe.server(.listenRevoked(path: try SyncFixtures.path("list"), query: last))
        #expect(probe.last.effects == [.cancelled(ListenerID(2), SyncErrors.revoked)])
        #expect(probe.engine.views.count == 1)
    }

    /// Data that is not a Firebase tree is dropped rather than stored.
    @Test func malformedDataIsDropped() throws {
        var probe = EngineProbe()
        try probe.listen(1, "list")
        probe.server(.data(path: try SyncFixtures.path("list"), .json(.object(["bad.key": .int(1)])), tag: nil))
        #expect(probe.lastEvents(1).isEmpty)
    }

    /// onDisconnect requests pass through, and their answers come back as completions.
    @Test func onDisconnectPassesThrough() throws {
        var probe = EngineProbe()
        let request = WireRequest.onDisconnectCancel(path: "/presence")
        probe.record(probe.engine.onDisconnect(RequestToken(7), request))
        #expect(probe.last.commands == [.onDisconnect(RequestToken(7), request)])
        probe.server(.requestAnswered(RequestToken(7), .okEmpty))
        #expect(probe.last.effects == [.requestCompleted(RequestToken(7), .okEmpty)])
    }

    /// Pushes for a listen the engine no longer holds change nothing.
    @Test func pushesAfterUnlistenAreIgnored() throws {
        var probe = EngineProbe()
        try probe.listen(1, "a")
        probe.record(probe.engine.removeListener(ListenerID(1)))
        try probe.push("a", "1")
        #expect(probe.engine.server.tree == .unknown)
    }
}

@Suite struct SyncEngineOnDisconnectTests {
    private func listening() throws -> EngineProbe {
        var probe = EngineProbe()
        try probe.listen(1, "presence", kinds: [.value])
        try probe.push("presence", #"{"me": true, "you": true}"#)
        return probe
    }

    /// The presence pattern: an accepted onDisconnect remove shows locally when the connection drops.
    @Test func acceptedOperationsApplyOnDisconnect() throws {
        var probe = try self.listening()
        probe.record(probe.engine.onDisconnect(RequestToken(1), .onDisconnectPut(path: "/presence/me", data: .null)))
        probe.server(.requestAnswered(RequestToken(1), .okEmpty))
        probe.server(.disconnected)
        #expect(probe.lastEvents(1) == [#"value {"you":true}"#])
        probe.server(.connected(serverTimeOffsetMilliseconds: 0))
        probe.server(.disconnected)
        #expect(probe.lastEvents(1).isEmpty)
    }

    /// Refused and cancelled operations never apply; an update applies each of its paths.
    @Test func refusedCancelledAndMergedOperations() throws {
        var probe = try self.listening()
        probe.record(probe.engine.onDisconnect(RequestToken(1), .onDisconnectPut(path: "/presence/me", data: .null)))
        probe.server(.requestAnswered(RequestToken(1), .failure(.permissionDeniedError)))
        probe.record(probe.engine.onDisconnect(RequestToken(2), .onDisconnectPut(path: "/presence", data: .null)))
        probe.server(.requestAnswered(RequestToken(2), .okEmpty))
        probe.record(probe.engine.onDisconnect(RequestToken(3), .onDisconnectCancel(path: "/presence/you")))
        probe.server(.requestAnswered(RequestToken(3), .okEmpty))
        let merge = WireRequest.onDisconnectMerge(path: "/presence", data: ["last": .int(9)])
        probe.record(probe.engine.onDisconnect(RequestToken(4), merge))
        probe.server(.requestAnswered(RequestToken(4), .okEmpty))
        probe.server(.disconnected)
        #expect(probe.lastEvents(1) == [#"value {"last":9}"#])
    }
}
