import HearthCore
import HearthWire

/// Writes, reads once, onDisconnect requests and transactions: each completion is filed before the engine is
/// asked, since the engine may answer in the same call (a read from the cache, an aborted transaction).
extension Repo {
    func set(_ value: WriteValue, at path: Path, completion: @escaping @Sendable (WireProtocolError?) -> Void) {
        self.run { state in
            let (id, output) = state.engine.set(value, at: path, now: Repo.now())
            let write = PersistedWrite(
                kind: .set, path: path, data: value.jsonValue(), origin: state.engine.origin(of: id))
            self.persistence?.log(id, write, in: &state)
            state.writes[id] = completion
            return output
        }
    }

    func update(
        _ values: [(relative: Path, value: WriteValue)],
        at path: Path,
        completion: @escaping @Sendable (WireProtocolError?) -> Void
    ) {
        self.run { state in
            let (id, output) = state.engine.update(values, at: path, now: Repo.now())
            let data = JSONValue.object(
                Dictionary(
                    values.map { (JSONKey($0.relative.slashless), $0.value.jsonValue()) }, uniquingKeysWith: { $1 }))
            let write = PersistedWrite(kind: .update, path: path, data: data, origin: state.engine.origin(of: id))
            self.persistence?.log(id, write, in: &state)
            state.writes[id] = completion
            return output
        }
    }

    func setPriority(
        _ priority: Priority?, at path: Path, completion: @escaping @Sendable (WireProtocolError?) -> Void
    ) {
        self.run { state in
            let (id, output) = state.engine.setPriority(priority, at: path)
            let data = priority?.jsonValue ?? .null
            let write = PersistedWrite(kind: .priority, path: path, data: data, origin: state.engine.origin(of: id))
            self.persistence?.log(id, write, in: &state)
            state.writes[id] = completion
            return output
        }
    }

    func get(
        _ path: Path, query: QuerySpec, completion: @escaping @Sendable (Result<Node, WireProtocolError>) -> Void
    ) {
        let token = RequestToken(self.makeNumber())
        self.run { state in
            state.gets[token] = completion
            return state.engine.get(token, at: path, query: query)
        }
    }

    func onDisconnect(_ request: WireRequest, completion: @escaping @Sendable (WireResponse) -> Void) {
        let token = RequestToken(self.makeNumber())
        self.run { state in
            state.requests[token] = completion
            return state.engine.onDisconnect(token, request)
        }
    }

    func runTransaction(
        at path: Path,
        applyLocally: Bool,
        update: @escaping TransactionUpdate,
        completion: @escaping @Sendable (TransactionOutcome) -> Void
    ) {
        let id = TransactionID(self.makeNumber())
        self.run { state in
            state.transactions[id] = completion
            return state.engine.runTransaction(
                id, at: path, applyLocally: applyLocally, now: Repo.now(), update: update)
        }
    }
}
