import HearthCore
import HearthWire
import Testing

@testable import Hearth

/// Small builders shared by the sync engine's tests: trees and paths from text, and an engine that records what
/// each call produced.
enum SyncFixtures {
    /// The tree written as JSON (export format: `.priority` and `.sv` allowed).
    static func node(_ json: String) throws -> Node {
        try WriteValue.parseWrite(Array(json.utf8), depth: 0).node
    }

    /// A write parsed from JSON, server values included.
    static func write(_ json: String) throws -> WriteValue {
        try WriteValue.parseWrite(Array(json.utf8), depth: 0)
    }

    /// A path from `a/b` text; `.info/…` too.
    static func path(_ text: String) throws -> Path {
        guard text.hasPrefix(".info") else { return try Path(validating: text) }
        return Path(keys: [InfoData.rootKey]).appending(try Path(validating: String(text.dropFirst(5))))
    }

    /// A leaf holding an integer.
    static func int(_ value: Int64) -> Node { Node(.int(value)) }
}

/// A `SyncEngine` under test, keeping every command and effect it produced in order.
struct EngineProbe {
    /// Resends at once after a stale answer, as Firebase's clients do; `SyncEngineBackoffTests` test the back-off.
    var engine: SyncEngine = {
        var engine = SyncEngine()
        engine.transactionBackoff = .none
        return engine
    }()
    var commands: [ServerCommand] = []
    var effects: [SyncEffect] = []
    /// What the latest call produced.
    var last = SyncOutput()

    mutating func record(_ output: SyncOutput) {
        self.last = output
        self.commands += output.commands
        self.effects += output.effects
    }

    mutating func listen(_ id: Int64, _ path: String, query: QuerySpec = .default, kinds: Set<DataEventKind>? = nil)
        throws
    {
        let path = try SyncFixtures.path(path)
        self.record(
            self.engine.addListener(ListenerID(id), at: path, query: query, kinds: kinds ?? Set(DataEventKind.allCases))
        )
    }

    mutating func server(_ event: ServerEvent) {
        self.record(self.engine.handle(event))
    }

    /// The server pushes `json` at `path` (untagged unless `tag` is given).
    mutating func push(_ path: String, _ json: String, tag: Int64? = nil) throws {
        let node = try SyncFixtures.node(json)
        self.server(.data(path: try SyncFixtures.path(path), .node(node), tag: tag))
    }

    /// The server answers the listen at `path` (with `query` and `tag` for a filtered one) with ok.
    mutating func answer(_ path: String, query: QuerySpec? = nil, tag: Int64? = nil) throws {
        let key = ListenKey(path: try SyncFixtures.path(path), query: query, tag: tag)
        self.server(.listenAnswered(key, .okEmpty))
    }

    @discardableResult
    mutating func set(_ path: String, _ json: String, now: Int64 = 0) throws -> WriteID {
        let (id, output) = self.engine.set(try SyncFixtures.write(json), at: try SyncFixtures.path(path), now: now)
        self.record(output)
        return id
    }

    /// The events of the latest call, for one listener, as `kind key prev` lines.
    func lastEvents(_ id: Int64) -> [String] {
        self.last.effects.compactMap { effect in
            guard case .event(let listener, let event) = effect, listener == ListenerID(id) else { return nil }
            return Self.describe(event)
        }
    }

    static func describe(_ event: DataEvent) -> String {
        let key = event.path.last?.string ?? "/"
        let value = String(decoding: event.node.jsonBytes(format: .export), as: UTF8.self)
        switch event.kind {
        case .value: return "value \(value)"
        case .childRemoved: return "removed \(key)"
        case .childAdded: return "added \(key) after \(event.previousSiblingKey?.string ?? "-") \(value)"
        case .childMoved: return "moved \(key) after \(event.previousSiblingKey?.string ?? "-")"
        case .childChanged: return "changed \(key) after \(event.previousSiblingKey?.string ?? "-") \(value)"
        }
    }
}
