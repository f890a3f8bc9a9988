import HearthCore
import HearthWire

/// Putting requests on the wire: ids, framing, and what a request too large for the protocol gets instead.
extension ConnectionMachine {
    /// Frames `message` onto the current transport; `false` when it is too large for the protocol.
    mutating func send(_ message: WireClientMessage, into actions: inout [Action]) -> Bool {
        guard
            let frames = WireFrameSplitter.frames(
                message.encoded(), maximumFrameBytes: self.configuration.maximumFrameBytes)
        else { return false }
        for frame in frames { actions.append(.send(attempt: self.attempt, frame: frame)) }
        return true
    }

    /// Sends `request` under the next request id, remembering what its answer is for; `false` when it is too large.
    mutating func sendRequest(_ request: WireRequest, for purpose: InFlight, into actions: inout [Action]) -> Bool {
        let id = self.nextRequestID
        self.nextRequestID += 1
        guard self.send(.request(id: id, request), into: &actions) else { return false }
        self.inFlight[id] = purpose
        return true
    }

    /// Sends the live listen `key` with the hash the engine gave.
    mutating func sendListen(_ key: ListenKey, into actions: inout [Action]) {
        guard let listen = self.listens[key] else { return }
        let request = WireRequest.listen(path: key.path.description, query: key.query, tag: key.tag, hash: listen.hash)
        let id = self.nextRequestID
        if self.sendRequest(request, for: .listen(key), into: &actions) {
            self.listens[key]?.requestID = id
        } else {
            self.removeListen(key)
            actions.append(.event(.listenAnswered(key, .failure(Self.tooBig))))
        }
    }

    /// Sends the pending write `id`, or fails it when it is too large. A write that names its origin says, as it
    /// goes, which of its client's writes are all answered: those numbered below the oldest one still pending
    /// (writes are queued in the order they were numbered), which the server may then forget.
    mutating func sendWrite(_ id: WriteID, into actions: inout [Action]) {
        guard let index = self.writes.firstIndex(where: { $0.id == id }) else { return }
        var request = self.writes[index].request
        if let origin = request.origin,
            let oldest = self.writes.first(where: { $0.request.origin?.client == origin.client })?.request.origin,
            let settled = try? WriteOrigin(
                client: origin.client, sequence: origin.sequence,
                settledBelow: min(oldest.sequence, origin.sequence))
        {
            request = request.with(origin: settled)
        }
        if self.sendRequest(request, for: .write(id), into: &actions) {
            self.writes[index].isSent = true
        } else {
            self.writes.remove(at: index)
            actions.append(.event(.writeAnswered(id, .failure(Self.tooBig))))
        }
    }

    /// Sends a get or onDisconnect request, or fails it when it is too large.
    mutating func sendRequest(_ token: RequestToken, _ request: WireRequest, into actions: inout [Action]) {
        guard !self.sendRequest(request, for: .request(token), into: &actions) else { return }
        actions.append(.event(.requestAnswered(token, .failure(Self.tooBig))))
    }

    mutating func removeListen(_ key: ListenKey) {
        guard self.listens.removeValue(forKey: key) != nil else { return }
        self.listenOrder.removeAll { $0 == key }
    }

    static let tooBig = WireProtocolError(
        .tooBig,
        "The request is larger than the realtime protocol can carry (\(WireFrameSplitter.maximumMessageBytes) "
            + "bytes); write the data in smaller parts."
    )
}
