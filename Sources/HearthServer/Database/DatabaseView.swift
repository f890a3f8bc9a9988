public import HearthCore
import Synchronization

/// The node's read view: the whole tree of every namespace, as of the newest durable record.
///
/// Records are applied in log order on the log's commit thread, so the view is always a consistent cut across
/// shards (a multi-shard update appears all at once), and a read is an O(1) capture of a persistent root. Listener
/// registration happens under the same lock as applying, so a new listener sees every change after the value it
/// was given, and none before.
public final class DatabaseView: Sendable {
    private struct State {
        var roots: [String: Node] = [:]
        var appliedLSN: UInt64 = 0
        var registry = ListenRegistry()
    }

    private let state = Mutex(State())
    private let onApplied: @Sendable (UInt64, [String: Node]) -> Void

    /// - Parameter onApplied: called after each record with its position and the roots (for snapshot scheduling).
    init(onApplied: @escaping @Sendable (UInt64, [String: Node]) -> Void = { _, _ in }) {
        self.onApplied = onApplied
    }

    /// The current root of a namespace.
    public func root(_ namespace: String) -> Node {
        self.state.withLock { $0.roots[namespace] ?? .empty }
    }

    /// Every namespace's root and the log position they reflect.
    func snapshot() -> (lsn: UInt64, roots: [String: Node]) {
        self.state.withLock { ($0.appliedLSN, $0.roots) }
    }

    /// Installs recovered state (startup only).
    func load(roots: [String: Node], lsn: UInt64) {
        self.state.withLock {
            $0.roots = roots
            $0.appliedLSN = lsn
        }
    }

    /// Applies one durable record and tells the listeners it concerns.
    func apply(_ record: CommitRecord, lsn: UInt64) {
        let (change, listeners, roots) = self.state.withLock { state in
            let old = state.roots[record.namespace] ?? .empty
            var new = old
            for mutation in record.mutations { new = mutation.apply(to: new) }
            state.roots[record.namespace] = new.isEmpty ? nil : new
            state.appliedLSN = lsn
            let change = CommittedChange(record: record, lsn: lsn, oldRoot: old, newRoot: new)
            let listeners = state.registry.listeners(
                namespace: record.namespace,
                touching: record.mutations.map(\.path)
            )
            return (change, listeners, state.roots)
        }
        for listener in listeners { listener.changed(change) }
        self.onApplied(lsn, roots)
    }

    /// Registers a listener and returns the namespace root it starts from, atomically.
    func addListener(_ listener: any ChangeListener) -> Node {
        self.state.withLock { state in
            state.registry.add(listener)
            return state.roots[listener.namespace] ?? .empty
        }
    }

    func removeListener(_ listener: any ChangeListener) {
        self.state.withLock { $0.registry.remove(listener) }
    }

    var listenerCount: Int { self.state.withLock { $0.registry.count } }

    /// Calls `body` for every listener (keep-alives); outside the lock.
    func forEachListener(_ body: (any ChangeListener) -> Void) {
        var all: [any ChangeListener] = []
        self.state.withLock { $0.registry.forEach { all.append($0) } }
        for listener in all { body(listener) }
    }
}
