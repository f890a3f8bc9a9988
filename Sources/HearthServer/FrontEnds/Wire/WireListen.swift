import HearthCore
import HearthWire
import Synchronization

/// One active listen of a wire session: a default listen on a path, or a tagged query listen with its window.
///
/// Registered with the read view, it hears every committed change touching its path on the commit thread, in log
/// order, and turns it into pushes on the session's transport (see `WireListen+Pushes.swift`). Changes that arrive
/// between registration and `start` are held, then replayed after the initial data push, so the client sees the
/// initial value first and every later change exactly once, in order, always before the `ok` of a write that
/// caused it.
final class WireListen: ChangeListener {
    let namespace: String
    let path: Path
    /// The query of a tagged listen; `nil` for a default listen.
    let query: QuerySpec?
    let tag: Int64?
    /// Runs the query over the value at the path (from a maintained index when the rules declare one).
    private let evaluate: @Sendable (QuerySpec, Node) -> Node
    private let transport: any WireTransport
    private let state = Mutex(State())

    private struct State {
        var isStarted = false
        var isStopped = false
        var pending: [CommittedChange] = []
        /// A tagged listen's current window: what the client holds at the query path.
        var window: Node = .empty
    }

    init(
        namespace: String, path: Path, query: QuerySpec?, tag: Int64?, transport: any WireTransport,
        evaluate: @escaping @Sendable (QuerySpec, Node) -> Node
    ) {
        self.namespace = namespace
        self.path = path
        self.query = query
        self.tag = tag
        self.evaluate = evaluate
        self.transport = transport
    }

    /// The value the client should see at the listen's path in a namespace root.
    func value(in root: Node) -> Node {
        let value = root.node(at: self.path)
        guard let query = self.query, !query.loadsAllData else { return value }
        return self.evaluate(query, value)
    }

    /// Sends the initial `d` push for the registration-time `root`, then every change held since.
    /// - Returns: `false` when the initial push could not be queued (the transport is closed or cut off).
    func start(root: Node) -> Bool {
        self.state.withLock { state in
            let initial = self.value(in: root)
            state.window = initial
            let push = WireServerMessage.dataPush(path: self.path, data: .node(initial), tag: self.tag)
            guard self.transport.send(push.encoded()) else {
                return false
            }
            for change in state.pending { self.push(change, window: &state.window) }
            state.pending = []
            state.isStarted = true
            return true
        }
    }

    /// Stops pushes; later changes are dropped.
    func stop() {
        self.state.withLock {
            $0.isStopped = true
            $0.pending = []
        }
    }

    func changed(_ change: CommittedChange) {
        self.state.withLock { state in
            guard !state.isStopped else { return }
            guard state.isStarted else {
                state.pending.append(change)
                return
            }
            self.push(change, window: &state.window)
        }
    }

    /// A default listen's pushes are the same for every session listening at its path: made once per change and
    /// shared. A tagged listen's depend on its own window.
    private func push(_ change: CommittedChange, window: inout Node) {
        guard self.tag != nil else {
            let key = ChangeEncodings.Key(kind: "wire", path: self.path)
            let shared = change.encodings.value(for: key) { self.defaultPushes(for: change).map(WireOutbound.init) }
            for message in shared { self.transport.send(message) }
            return
        }
        for message in self.taggedPushes(for: change, window: &window) { self.transport.send(message) }
    }
}
