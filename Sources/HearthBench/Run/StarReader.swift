import Hearth
import HearthCore
import HearthSystem
import HearthWire

/// A reader of a run: listens to the top posts (`orderByChild("starCount").limitToLast(10)` at `posts`) over a
/// connection of its own, as an app's list of top posts would, and keeps the posts the server pushes for it. At the
/// end its view must equal what the database answers for the same query.
final class StarReader: Sendable {
    let index: Int
    private let sink = EventSink<StarReader>()
    private let connection: PersistentConnection
    private let state = Lock(State())

    private struct State {
        var isConnected = false
        /// The posts as pushed for this listen, rooted at `posts`.
        var cache = Node.empty
        var updates = 0
        var lastPush = ContinuousClock.now
        /// Why the server refused the listen, if it did.
        var refusal: String?
    }

    /// `posts`, ordered by `starCount`, the last ten.
    static let path = Path(keys: [Key(unchecked: "posts")])
    static var query: QuerySpec {
        do {
            return try QuerySpec(index: .child(Path(keys: [Key(unchecked: "starCount")])), limit: .last(10))
        } catch {
            preconditionFailure("orderByChild(starCount).limitToLast(10) is a valid query: \(error)")
        }
    }

    init(index: Int, nodes: [StarsOptions.Node], namespace: String) {
        self.index = index
        self.connection = .star(index: index, nodes: nodes, namespace: namespace, sink: self.sink) { reader, event in
            reader.handle(event)
        }
        self.sink.owner = self
    }

    private var key: ListenKey { ListenKey(path: Self.path, query: Self.query, tag: Int64(self.index + 1)) }

    /// Connects and listens (the connection listens again after every reconnect); false if not connected in time.
    func listen(timeout: Duration) async -> Bool {
        self.connection.send(.listen(self.key, hash: ""))
        self.connection.goOnline()
        return await Waiting.until(timeout: timeout) { self.state.withLock { $0.isConnected } }
    }

    /// Waits until no push has come for `quiet`, or `timeout` passed.
    func settle(quiet: Duration, timeout: Duration) async {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline, ContinuousClock.now - self.state.withLock({ $0.lastPush }) < quiet {
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The top posts as this reader sees them, the pushes it received, and why the listen was refused (if it was).
    var view: (posts: Node, updates: Int, refusal: String?) {
        self.state.withLock { (Self.query.evaluate($0.cache), $0.updates, $0.refusal) }
    }

    func close() {
        self.connection.close()
        self.sink.owner = nil
    }

    private func handle(_ event: ServerEvent) {
        self.state.withLock { state in
            switch event {
            case .connected: state.isConnected = true
            case .disconnected: state.isConnected = false
            case .data(let path, let data, let tag) where tag == self.key.tag:
                Self.apply(&state, at: path, data)
            case .merge(let path, let changes, let tag) where tag == self.key.tag:
                for change in changes { Self.apply(&state, at: path.appending(change.relative), change.data) }
            case .listenAnswered(let key, .failure(let error)) where key == self.key:
                state.refusal = "\(error)"
            default: break
            }
        }
    }

    private static func apply(_ state: inout State, at path: Path, _ data: WireData) {
        guard let relative = Self.path.relativePath(to: path), let tree = try? data.tree() else { return }
        state.cache = state.cache.setting(tree, at: relative)
        state.updates += 1
        state.lastPush = .now
    }
}
