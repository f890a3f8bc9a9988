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
