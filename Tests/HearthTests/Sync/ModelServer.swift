import HearthCore
import HearthWire

@testable import Hearth

/// A whole server in a few lines, for the engine's model-based test: one tree, the listens it was asked for, and
/// the client's requests waiting in order (the connection's queue while offline).
struct ModelServer {
    var truth = Node.empty
    var listens: [ListenKey] = []
    var inbox: [ServerCommand] = []
    var isOnline = true
    /// The onDisconnect sets accepted from the client, run when it disconnects.
    var onDisconnect: [(path: Path, node: Node)] = []

    /// Carries out the oldest request; `reject` refuses it if it is a write.
    mutating func step(reject: Bool) -> [ServerEvent] {
        guard self.isOnline, !self.inbox.isEmpty else { return [] }
        let command = self.inbox.removeFirst()
        switch command {
        case .listen(let key, _):
            // As Hearth's server does: the listen's data always comes first, even null.
            self.listens.append(key)
            return [self.push(for: key), .listenAnswered(key, .okEmpty)]
        case .unlisten(let key):
            self.listens.removeAll { $0 == key }
            return []
        case .write(let id, let request):
            if reject { return [.writeAnswered(id, .failure(.permissionDeniedError))] }
            return self.apply(request, id: id)
        case .get(let token, let path, let query):
            let node = self.truth.node(at: path)
            return [.requestAnswered(token, .ok(.node(query?.evaluate(node) ?? node)))]
        case .onDisconnect(let token, let request):
            if case .onDisconnectPut(let text, let data) = request, let path = try? Path(validating: text),
                let value = try? WriteValue(json: data, depth: path.count)
            {
                self.onDisconnect.append((path, value.node))
            }
            return [.requestAnswered(token, .okEmpty)]
        case .purgeWrites:
            // The model's inbox is the connection's queue: `receive(_:)` dropped the writes waiting in it.
            return []
        }
    }

    /// Takes the client's commands into the queue; a purge drops the writes still waiting there.
    mutating func receive(_ commands: [ServerCommand]) {
        for command in commands {
            if command == .purgeWrites {
                self.inbox.removeAll { if case .write = $0 { true } else { false } }
            }
            self.inbox.append(command)
        }
    }

    /// Another client writes `node` at `path`.
    mutating func write(_ node: Node, at path: Path) -> [ServerEvent] {
        self.truth.set(node, at: path)
        return self.isOnline ? self.pushes(near: path) : []
    }

    /// The connection dropped: the client's onDisconnect sets run.
    mutating func disconnect() {
        self.isOnline = false
        for (path, node) in self.onDisconnect {
            self.truth.set(node, at: path)
        }
        self.onDisconnect = []
    }

    /// The connection came back: the listens are answered again.
    mutating func reconnect() -> [ServerEvent] {
        self.isOnline = true
        var events: [ServerEvent] = [.connected(serverTimeOffsetMilliseconds: 0)]
        for key in self.listens {
            events.append(self.push(for: key))
            events.append(.listenAnswered(key, .okEmpty))
        }
        return events
    }

    private mutating func apply(_ request: WireRequest, id: WriteID) -> [ServerEvent] {
        switch request {
        case .put(let text, let data, nil, _) where text.hasSuffix("/.priority"):
            guard let path = try? Path(validating: String(text.dropLast(10))) else {
                return [.writeAnswered(id, .failure(WireProtocolError(.invalidData, "bad priority \(text)")))]
            }
            let priority: Priority? =
                switch data {
                case .int(let number): .int(number)
                case .string(let string): .string(string)
                default: nil
                }
            self.truth.setPriority(priority, at: path)
            return self.pushes(near: path) + [.writeAnswered(id, .okEmpty)]
        case .put(let text, let data, let hash, _):
            guard let path = try? Path(validating: text), let value = try? WriteValue(json: data, depth: path.count)
            else {
                return [.writeAnswered(id, .failure(WireProtocolError(.invalidData, "bad put \(text)")))]
            }
            if let hash, self.truth.node(at: path).hash != hash {
                return [.writeAnswered(id, .failure(WireProtocolError(.dataStale, "stale")))]
            }
            self.truth.set(value.resolved(existing: self.truth.node(at: path), now: 0), at: path)
            return self.pushes(near: path) + [.writeAnswered(id, .okEmpty)]
        case .merge(let text, let members, _):
            guard let path = try? Path(validating: text) else {
                return [.writeAnswered(id, .failure(WireProtocolError(.invalidData, "bad merge \(text)")))]
            }
            for (relative, data) in members.sorted(by: { $0.key < $1.key }) {
                guard let child = try? Path(validating: relative.string),
                    let value = try? WriteValue(json: data, depth: 0)
                else { continue }
                let target = path.appending(child)
                self.truth.set(value.resolved(existing: self.truth.node(at: target), now: 0), at: target)
            }
            return self.pushes(near: path) + [.writeAnswered(id, .okEmpty)]
        default:
            return [.writeAnswered(id, .failure(WireProtocolError(.invalidRequest, "unexpected \(request)")))]
        }
    }

    private func data(for key: ListenKey) -> Node {
        let node = self.truth.node(at: key.path)
        guard let query = key.query, key.tag != nil else { return node }
        return query.evaluate(node)
    }

    private func push(for key: ListenKey) -> ServerEvent {
        .data(path: key.path, .node(self.data(for: key)), tag: key.tag)
    }

    /// What the listens near a change hear: untagged ones the changed location (or their own, when the change is
    /// above them), tagged ones their whole window.
    private func pushes(near path: Path) -> [ServerEvent] {
        var events: [ServerEvent] = []
        for key in self.listens where key.path.contains(path) || path.contains(key.path) {
            if key.tag != nil {
                events.append(self.push(for: key))
            } else {
                let target = key.path.contains(path) ? path : key.path
                events.append(.data(path: target, .node(self.truth.node(at: target)), tag: nil))
            }
        }
        return events
    }
}
