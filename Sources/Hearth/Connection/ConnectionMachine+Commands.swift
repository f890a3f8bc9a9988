import HearthCore
import HearthWire

/// The sync engine's commands.
extension ConnectionMachine {
    /// Takes one command from the engine: sent at once when connected, otherwise kept (or, for a get while
    /// offline, failed) as the type's rules say.
    package mutating func handle(_ command: ServerCommand, at now: ConnectionTime) -> [Action] {
        var actions: [Action] = []
        switch command {
        case .listen(let key, let hash):
            guard self.listens[key] == nil else {
                self.listens[key]?.hash = hash
                return []
            }
            self.listens[key] = LiveListen(hash: hash)
            self.listenOrder.append(key)
            if self.isConnected { self.sendListen(key, into: &actions) }
        case .unlisten(let key):
            guard self.listens[key] != nil else { return [] }
            self.removeListen(key)
            if self.isConnected {
                let request = WireRequest.unlisten(path: key.path.description, query: key.query, tag: key.tag)
                _ = self.sendRequest(request, for: .unlisten, into: &actions)
            }
        case .write(let id, let request):
            self.writes.append(PendingWrite(id: id, request: request))
            if self.isConnected { self.sendWrite(id, into: &actions) }
        case .onDisconnect(let token, let request):
            if self.isConnected {
                self.sendRequest(token, request, into: &actions)
            } else {
                self.queuedOnDisconnect.append((token, request))
            }
        case .purgeWrites:
            self.writes.removeAll()
        case .get(let token, let path, let query):
            let request = WireRequest.get(path: path.description, query: query)
            switch self.phase {
            case .connected:
                self.sendRequest(token, request, into: &actions)
            case .offline, .shutdown:
                actions.append(.event(.requestAnswered(token, .failure(.offline))))
            case .waiting, .opening:
                let deadline = now.monotonic + self.configuration.getTimeout
                self.queuedGets.append(QueuedGet(token: token, request: request, deadline: deadline))
            }
        }
        return actions
    }
}
