import HearthCore
import HearthDatabase
import HearthNet
import HearthRules
import HearthSystem

/// One `Accept: text/event-stream` client: the initial `put` of the value (or query result) at its path, then a
/// `put` or `patch` for every committed change under it, and `keep-alive` events in between.
///
/// Changes arrive on the commit thread, possibly before the HTTP head has been written; until `start` they are held
/// in order and flushed right after the initial event, so a client never misses or reorders a change.
///
/// With `shallow=values` (Hearth's own, see `RESTRequest.oneLevel`) every event is a `put` of the whole level, sent
/// when it changes: the web console watches a page of a large node with it, never downloading the subtrees beneath.
package final class SSEStream: HTTPStreamSession, GroupedChangeListener {
    let namespace: String
    let path: Path
    /// Who opened the stream: it ends with `cancel` when the rules stop letting them read it.
    let identity: AuthIdentity
    let query: QuerySpec?
    /// True for `shallow=values`: events carry one level (see the type's description).
    let oneLevel: Bool
    /// Runs the query over the value at the path (from a maintained index when the rules declare one).
    private let evaluate: @Sendable (QuerySpec, Node) -> Node
    /// How the stream's events are written.
    let events: SSEEvents
    private let view: DatabaseView
    private let state = Lock(State())

    private struct State {
        var writer: ConnectionWriter?
        var pending: [[UInt8]] = []
        var initial: [UInt8]?
        var lastQueryResult: Node?
        /// The last level sent (`oneLevel`), so a change that leaves it as it was sends nothing.
        var lastLevel: [UInt8]?
        var closed = false
    }

    init(
        namespace: String, path: Path, identity: AuthIdentity, query: QuerySpec?,
        evaluate: @escaping @Sendable (QuerySpec, Node) -> Node, exportFormat: Bool, oneLevel: Bool = false,
        view: DatabaseView
    ) {
        self.oneLevel = oneLevel
        self.namespace = namespace
        self.path = path
        self.identity = identity
        self.evaluate = evaluate
        self.query = query
        self.events = SSEEvents(path: path, exportFormat: exportFormat)
        self.view = view
    }

    /// Default streams at one path in one format share their events; a query's or a one-level one's depend on its
    /// own result.
    var groupKind: String? {
        guard self.query == nil, !self.oneLevel else { return nil }
        return self.events.exportFormat ? "sse-export" : "sse"
    }

    func makeGroup() -> any ListenerGroup {
        SharedListenGroup<SSEStream>(namespace: self.namespace, path: self.path) { [events = self.events] change in
            events.events(for: change)
        }
    }

    /// Registers with the view and prepares the initial `put` from the value at registration time.
    func register() {
        let root = self.view.addListener(self)
        let value = self.currentValue(in: root)
        let level = self.oneLevel ? value.oneLevelJSONBytes() : nil
        let event = level.map { self.events.put(json: $0) } ?? self.events.put(value)
        self.state.withLock {
            $0.initial = event
            if level != nil, $0.lastLevel == nil { $0.lastLevel = level }
            if self.query != nil, $0.lastQueryResult == nil { $0.lastQueryResult = value }
        }
    }

    func start(_ writer: ConnectionWriter) {
        let alive = self.state.withLock { state -> Bool in
            if let initial = state.initial { writer.write(initial) }
            for event in state.pending { writer.write(event) }
            state.pending = []
            guard !state.closed else { return false }
            state.writer = writer
            return true
        }
        if !alive { writer.close() }
    }

    func connectionClosed() {
        self.state.withLock {
            $0.closed = true
            $0.writer = nil
            $0.pending = []
        }
        self.view.removeListener(self)
    }

    /// Evicted to protect the node's memory: the stream ends with a `cancel` event after the event in progress (the
    /// events not yet begun are gone); the client may open a new stream and read from the current value.
    func evicted(reason: ConnectionEviction) {
        let writer = self.state.withLock { state -> ConnectionWriter? in
            state.closed = true
            return state.writer
        }
        writer?.writeFarewell(Self.cancel)
    }

    /// The rules no longer let the stream's client read it (Firebase's `cancel`), or its credential expired
    /// (`auth_revoked`, with the words the Python SDK looks for): the stream ends with that event. A stream whose
    /// head is not written yet ends at `start`, with the event.
    func revoke(expired: Bool) {
        self.view.removeListener(self)
        let farewell =
            expired ? Array("event: auth_revoked\ndata: credential is no longer valid\n\n".utf8) : Self.cancel
        let writer = self.state.withLock { state -> ConnectionWriter? in
            guard !state.closed else { return nil }
            state.closed = true
            guard let writer = state.writer else {
                state.pending.append(farewell)
                return nil
            }
            return writer
        }
        writer?.write(farewell)
        writer?.close()
    }

    private static let cancel = Array("event: cancel\ndata: null\n\n".utf8)

    /// Sends a keep-alive event (`data: null`, which clients ignore).
    package func sendKeepAlive() {
        self.send(Array("event: keep-alive\ndata: null\n\n".utf8))
    }

    func changed(_ change: CommittedChange) {
        if self.oneLevel {
            let level = self.currentValue(in: change.newRoot).oneLevelJSONBytes()
            let isNew = self.state.withLock { state -> Bool in
                guard state.lastLevel != level else { return false }
                state.lastLevel = level
                return true
            }
            if isNew { self.send(self.events.put(json: level)) }
            return
        }
        if self.query != nil {
            let result = self.currentValue(in: change.newRoot)
            let isNew = self.state.withLock { state -> Bool in
                guard state.lastQueryResult != result else { return false }
                state.lastQueryResult = result
                return true
            }
            if isNew { self.send(self.events.put(result)) }
            return
        }
        self.deliver(self.events.events(for: change))
    }

    /// Sends a default stream's events for one change, made by its group (held until `start`).
    func deliver(_ events: [[UInt8]]) {
        for event in events { self.send(event) }
    }

    private func currentValue(in root: Node) -> Node {
        let value = root.node(at: self.path)
        return self.query.map { self.evaluate($0, value) } ?? value
    }

    private func send(_ event: [UInt8]) {
        self.state.withLock { state in
            guard !state.closed else { return }
            if let writer = state.writer {
                writer.write(event)
            } else {
                state.pending.append(event)
            }
        }
    }
}
