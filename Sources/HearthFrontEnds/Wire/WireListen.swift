import HearthCore
import HearthDatabase
import HearthSystem
import HearthWire

/// One active listen of a wire session: a default listen on a path, or a tagged query listen with its window.
///
/// Registered with the read view, it hears every committed change touching its path on the commit thread, in log
/// order, and turns it into pushes on the session's transport (see `WireListen+Pushes.swift`). Default listens at
/// one path hear changes through their group (`SharedListenGroup`), which makes the pushes once for all of them.
/// Changes that arrive between registration and `start` are held, then replayed after the initial data push, so the
/// client sees the initial value first and every later change exactly once, in order, always before the `ok` of a
/// write that caused it.
final class WireListen: GroupedChangeListener {
    let namespace: String
    let path: Path
    /// The query of a tagged listen; `nil` for a default listen.
    let query: QuerySpec?
    let tag: Int64?
    /// Runs the query over the value at the path (from a maintained index when the rules declare one).
    private let evaluate: @Sendable (QuerySpec, Node) -> Node
    private let transport: any WireTransport
    private let state = Lock(State())

    private struct State {
        var isStarted = false
        var isStopped = false
        /// A tagged listen's changes heard before `start`.
        var pending: [CommittedChange] = []
        /// A default listen's pushes handed over before `start`.
        var pendingPushes: [WireOutbound] = []
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

    /// Default listens share their pushes; a tagged listen's depend on its own window.
    var groupKind: String? { self.tag == nil ? "wire" : nil }

    func makeGroup() -> any ListenerGroup {
        SharedListenGroup<WireListen>(namespace: self.namespace, path: self.path) { [path = self.path] change in
            Self.defaultPushes(for: change, at: path).map(WireOutbound.init)
        }
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
            for change in state.pending { self.pushTagged(change, window: &state.window) }
            for push in state.pendingPushes { self.transport.send(push) }
            state.pending = []
            state.pendingPushes = []
            state.isStarted = true
            return true
        }
    }

    /// Stops pushes; later changes are dropped.
    func stop() {
        self.state.withLock {
            $0.isStopped = true
            $0.pending = []
            $0.pendingPushes = []
        }
    }

    /// Hears a change on its own: a tagged listen (a default one hears through its group, but works alone too).
    func changed(_ change: CommittedChange) {
        guard self.tag != nil else {
            self.deliver(Self.defaultPushes(for: change, at: self.path).map(WireOutbound.init))
            return
        }
        self.state.withLock { state in
            guard !state.isStopped else { return }
            guard state.isStarted else {
                state.pending.append(change)
                return
            }
            self.pushTagged(change, window: &state.window)
        }
    }

    /// Sends a default listen's pushes for one change, made by its group (held until `start`).
    func deliver(_ pushes: [WireOutbound]) {
        self.state.withLock { state in
            guard !state.isStopped else { return }
            guard state.isStarted else {
                state.pendingPushes += pushes
                return
            }
            for push in pushes { self.transport.send(push) }
        }
    }

    private func pushTagged(_ change: CommittedChange, window: inout Node) {
        for message in self.taggedPushes(for: change, window: &window) { self.transport.send(message) }
    }
}
