import HearthCore
import HearthWire
import Testing

@testable import Hearth

@Suite struct SyncEngineWriteTests {
    /// A probe listening at `list` with the server's `json` there.
    private func listening(_ json: String, kinds: Set<DataEventKind>? = nil) throws -> EngineProbe {
        var probe = EngineProbe()
        try probe.listen(1, "list", kinds: kinds)
        try probe.push("list", json)
        try probe.answer("list")
        return probe
    }

    /// A write raises local events at once and goes out as a put; the ack changes nothing visible.
    @Test func localEventsAtOnce() throws {
        var probe = try self.listening(#"{"a": 1}"#)
        let id = try probe.set("list/b", "2")
        #expect(probe.lastEvents(1) == ["added b after a 2", #"value {"a":1,"b":2}"#])
        #expect(probe.last.commands == [.write(id, .put(path: "/list/b", data: .int(2), hash: nil))])
        try probe.push("list/b", "2")
        #expect(probe.lastEvents(1).isEmpty)
        probe.server(.writeAnswered(id, .okEmpty))
        #expect(probe.last.effects == [.writeCompleted(id, nil)])
        #expect(probe.engine.writes.writes.isEmpty)
    }

    /// A refused write reverts its events, then its completion gets the server's error.
    @Test func aRefusedWriteReverts() throws {
        var probe = try self.listening(#"{"a": 1}"#)
        let id = try probe.set("list/a", "5")
        #expect(probe.lastEvents(1) == ["changed a after - 5", #"value {"a":5}"#])
        probe.server(.writeAnswered(id, .failure(.permissionDeniedError)))
        #expect(probe.lastEvents(1) == ["changed a after - 1", #"value {"a":1}"#])
        #expect(probe.last.effects.last == .writeCompleted(id, .permissionDeniedError))
    }

    /// Offline, with nothing from the server, a listener still sees its own writes: child events for children
    /// written wholly, and value once a write covers the whole location.
    @Test func offlineWritesShowFromNothing() throws {
        var probe = EngineProbe()
        try probe.listen(1, "list")
        try probe.set("list/a", "1")
        #expect(probe.lastEvents(1) == ["added a after - 1"])
        try probe.set("list/b/deep", "2")
        #expect(probe.lastEvents(1).isEmpty)
        try probe.set("list", #"{"c": 3}"#)
        #expect(probe.lastEvents(1) == ["removed a", "added c after - 3", #"value {"c":3}"#])
        #expect(probe.commands.filter { if case .write = $0 { true } else { false } }.count == 3)
    }

    /// Writes are sent in the order they were made, each with a larger id.
    @Test func writesGoOutInOrder() throws {
        var probe = EngineProbe()
        let first = try probe.set("a", "1")
        let second = try probe.set("b", "2")
        #expect(first < second)
        #expect(
            probe.commands == [
                .write(first, .put(path: "/a", data: .int(1), hash: nil)),
                .write(second, .put(path: "/b", data: .int(2), hash: nil)),
            ]
        )
    }

    /// A timestamp is estimated with the server's offset and replaced by the server's value.
    @Test func serverTimestampEstimate() throws {
        var probe = try self.listening("{}", kinds: [.value])
        probe.server(.connected(serverTimeOffsetMilliseconds: 1_000))
        let id = try probe.set("list/at", #"{".sv": "timestamp"}"#, now: 5_000)
        #expect(probe.lastEvents(1) == [#"value {"at":6000}"#])
        guard case .write(_, .put(_, let data, _, _)) = probe.last.commands.first else {
            Issue.record("expected a put, got \(probe.last.commands)")
            return
        }
        #expect(data == .object([".sv": .string("timestamp")]))
        try probe.push("list/at", "6123")
        #expect(probe.lastEvents(1).isEmpty)
        probe.server(.writeAnswered(id, .okEmpty))
        #expect(probe.lastEvents(1) == [#"value {"at":6123}"#])
    }

    /// An increment adds to the value the client shows.
    @Test func incrementEstimate() throws {
        var probe = try self.listening(#"{"stars": 4}"#, kinds: [.value])
        try probe.set("list/stars", #"{".sv": {"increment": 1}}"#)
        #expect(probe.lastEvents(1) == [#"value {"stars":5}"#])
    }

    /// A multi-path update is one write with one set of events.
    @Test func updatesAreAtomic() throws {
        var probe = try self.listening(#"{"a": 1, "b": 2}"#)
        let values = [
            (relative: try SyncFixtures.path("a"), value: try SyncFixtures.write("10")),
            (relative: try SyncFixtures.path("c"), value: try SyncFixtures.write("30")),
        ]
        let (id, output) = probe.engine.update(values, at: try SyncFixtures.path("list"), now: 0)
        probe.record(output)
        #expect(
            probe.lastEvents(1) == [
                "added c after b 30", "changed a after - 10", #"value {"a":10,"b":2,"c":30}"#,
            ]
        )
        #expect(
            probe.last.commands == [.write(id, .merge(path: "/list", data: ["a": .int(10), "c": .int(30)]))]
        )
    }

    /// A priority write moves the child in a priority-ordered view.
    @Test func priorityWritesMoveChildren() throws {
        var probe = try self.listening(#"{"a": 1, "b": 2}"#)
        let (id, output) = probe.engine.setPriority(.int(5), at: try SyncFixtures.path("list/a"))
        probe.record(output)
        #expect(probe.lastEvents(1).prefix(2) == ["moved a after b", #"changed a after b {".value":1,".priority":5}"#])
        #expect(probe.last.commands == [.write(id, .put(path: "/list/a/.priority", data: .int(5), hash: nil))])
    }

    /// A write confirmed before its location's listen is answered stays shown until the listen's answer, and
    /// the listen's hash stays the hash of what the cache held when it was sent.
    @Test func aConfirmedWriteStaysUntilTheListenIsAnswered() throws {
        var probe = EngineProbe()
        try probe.listen(1, "list", kinds: [.value])
        let id = try probe.set("list", #"{"a": 1}"#)
        probe.server(.writeAnswered(id, .okEmpty))
        #expect(probe.last.effects == [.writeCompleted(id, nil)])
        #expect(probe.engine.server.tree == .unknown)
        try probe.push("list", #"{"a": 1, "b": 2}"#)
        #expect(probe.lastEvents(1).isEmpty)
        try probe.answer("list")
        #expect(probe.lastEvents(1) == [#"value {"a":1,"b":2}"#])
        #expect(probe.engine.writes.writes.isEmpty)
    }

    /// `getData()` offline answers from a complete cache; where nothing is known it asks the connection (which
    /// waits for a connection being set up) and fails when the connection cannot carry it.
    @Test func getOffline() throws {
        var probe = try self.listening(#"{"a": 1}"#)
        probe.record(probe.engine.get(RequestToken(1), at: try SyncFixtures.path("list/a")))
        #expect(probe.last.effects == [.getCompleted(RequestToken(1), .success(SyncFixtures.int(1)))])
        let other = try SyncFixtures.path("other")
        probe.record(probe.engine.get(RequestToken(2), at: other))
        #expect(probe.last.commands == [.get(RequestToken(2), path: other, query: nil)])
        probe.server(.requestAnswered(RequestToken(2), .failure(.offline)))
        #expect(probe.last.effects == [.getCompleted(RequestToken(2), .failure(SyncErrors.offline(other)))])
    }

    /// Online, `getData()` asks the server; an answer of `disconnected` falls back to the cache.
    @Test func getOnline() throws {
        var probe = try self.listening(#"{"a": 1}"#)
        probe.server(.connected(serverTimeOffsetMilliseconds: 0))
        let path = try SyncFixtures.path("list")
        probe.record(probe.engine.get(RequestToken(1), at: path))
        #expect(probe.last.commands == [.get(RequestToken(1), path: path, query: nil)])
        probe.server(.requestAnswered(RequestToken(1), .ok(.node(SyncFixtures.int(7)))))
        #expect(probe.last.effects == [.getCompleted(RequestToken(1), .success(SyncFixtures.int(7)))])
        probe.record(probe.engine.get(RequestToken(2), at: path))
        let offline = WireProtocolError(WireProtocolError.Code(status: "disconnected"), "offline")
        probe.server(.requestAnswered(RequestToken(2), .failure(offline)))
        #expect(probe.last.effects == [.getCompleted(RequestToken(2), .success(try SyncFixtures.node(#"{"a": 1}"#)))])
    }
}
