package import HearthCore
package import HearthWire

/// One-off requests: `getData()` and onDisconnect operations.
extension SyncEngine {
    /// `getData()`: the server's data when online, else the cache's (with pending writes) when it knows the
    /// location wholly, else the connection's answer: it waits a few seconds for a connection being set up and
    /// fails at once when offline by choice, and a failure falls back to the cache (an error when it knows
    /// nothing).
    package mutating func get(_ token: RequestToken, at path: Path, query: QuerySpec = .default) -> SyncOutput {
        self.producing { engine in
            let key = ViewKey(path: path, query: query)
            guard !key.isInfo, engine.info.isConnected || !engine.snapshot(for: key).isComplete else {
                engine.answerFromCache(token, key)
                return
            }
            engine.gets[token] = key
            engine.send(.get(token, path: path, query: query.isDefault ? nil : query))
        }
    }

    /// Sends an onDisconnect request (`o`, `om`, `oc`); its answer comes back as `requestCompleted`. Once the
    /// server accepts it, the engine also applies it locally when the connection drops (see
    /// `SyncEngine+OnDisconnect.swift`).
    package mutating func onDisconnect(_ token: RequestToken, _ request: WireRequest) -> SyncOutput {
        self.producing { engine in
            engine.onDisconnectRequests[token] = request
            engine.send(.onDisconnect(token, request))
        }
    }

    mutating func requestAnswered(_ token: RequestToken, _ response: WireResponse) {
        if let request = self.onDisconnectRequests.removeValue(forKey: token), case .ok = response {
            self.rememberOnDisconnect(request)
        }
        guard let key = self.gets.removeValue(forKey: token) else {
            self.emit(.requestCompleted(token, response))
            return
        }
        switch response {
        case .ok(let data):
            do {
                self.emit(.getCompleted(token, .success(try data.tree())))
            } catch {
                self.emit(.getCompleted(token, .failure(error)))
            }
        case .failure(let error) where error.code == WireProtocolError.Code(status: "disconnected"):
            self.answerFromCache(token, key)
        case .failure(let error):
            self.emit(.getCompleted(token, .failure(error)))
        }
    }

    private mutating func answerFromCache(_ token: RequestToken, _ key: ViewKey) {
        let snapshot = self.snapshot(for: key)
        if snapshot.isComplete {
            self.emit(.getCompleted(token, .success(snapshot.node)))
        } else {
            self.emit(.getCompleted(token, .failure(SyncErrors.offline(key.path))))
        }
    }
}
