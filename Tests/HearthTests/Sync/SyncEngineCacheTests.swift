import HearthCore
import HearthWire
import Testing

@testable import Hearth

/// The persistent cache in the engine: data kept after its listens end, restored at start, trimmed oldest first.
@Suite struct SyncEngineCacheTests {
    private func probe(retaining: Bool) throws -> EngineProbe {
        var probe = EngineProbe()
        probe.engine.retainsCache = retaining
        try probe.listen(1, "a")
        try probe.push("a", #"{"x": 1}"#)
        try probe.answer("a")
        probe.record(probe.engine.removeListener(ListenerID(1)))
        return probe
    }

    @Test func dataStaysCachedAfterItsListenOnlyWithPersistence() throws {
        let kept = try self.probe(retaining: true)
        #expect(kept.engine.cacheRegions.map(\.path) == [try SyncFixtures.path("a")])
        #expect(kept.engine.server.tree.isComplete(at: try SyncFixtures.path("a")))
        let dropped = try self.probe(retaining: false)
        #expect(dropped.engine.cacheRegions.isEmpty)
        #expect(!dropped.engine.server.tree.isComplete(at: try SyncFixtures.path("a")))
    }

    @Test func aRestoredCacheAnswersListenersOffline() throws {
        var probe = EngineProbe()
        let path = try SyncFixtures.path("a")
        probe.record(probe.engine.restoreCache([(path, try SyncFixtures.node(#"{"x": 1}"#))], now: 5))
        try probe.listen(1, "a", kinds: [.value])
        #expect(probe.lastEvents(1) == [#"value {"x":1}"#])
        try probe.push("a", #"{"x": 2}"#)
        #expect(probe.lastEvents(1) == [#"value {"x":2}"#])
    }

    @Test func trimmingDropsTheLeastRecentlyUsedButNeverWhatIsListenedTo() throws {
        var probe = EngineProbe()
        let big = String(repeating: "x", count: 1_000)
        let regions = try ["old", "new", "live"].enumerated().map { index, key in
            (try SyncFixtures.path(key), Node(.string(big + "\(index)")))
        }
        probe.record(probe.engine.restoreCache([regions[0]], now: 1))
        probe.record(probe.engine.restoreCache([regions[1], regions[2]], now: 2))
        try probe.listen(1, "live")
        probe.engine.trimCache(maximumBytes: 2_500)
        #expect(Set(probe.engine.cacheRegions.map(\.path.slashless)) == ["new", "live"])
        probe.engine.trimCache(maximumBytes: 10)
        #expect(probe.engine.cacheRegions.map(\.path.slashless) == ["live"])
    }
}
