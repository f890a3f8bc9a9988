public import HearthNet

/// On a single node, REST writes go to the write loop as one batch per hand-off and are answered by its completion:
/// no task waits for them. A cluster member, or a batch holding anything but plain writes, is handled as
/// `handle(batch:ordered:)` handles it.
extension RESTHandler {
    /// Hands a batch of plain writes (every request `sharesBatches` admits, one alone included) to the write loop,
    /// calls `ordered` once they are queued there (the connection's later writes are decided after them), and
    /// `reply` with every answer, in order, from the thread that shows the last of them. Anything else is awaited
    /// and then replied.
    public func handle(
        batch requests: [HTTPRequest], ordered: (@Sendable () -> Void)?,
        reply: @escaping @Sendable ([HTTPReply]) -> Void
    ) async {
        guard let writes = self.loopWrites(for: requests) else {
            if let ordered {
                reply(await self.handle(batch: requests, ordered: ordered))
            } else if requests.count == 1, let request = requests.first {
                reply([await self.handle(request)])
            } else {
                reply(await self.handle(batch: requests))
            }
            return
        }
        self.order(requests, in: writes, ordered: ordered, reply: reply)
    }

    /// The write loop, when this node has one and every request of the batch is a plain write for it.
    func loopWrites(for requests: [HTTPRequest]) -> WriteDecider? {
        guard let writes = self.access.writes,
            requests.allSatisfy({
                self.sharesBatches(method: $0.method, path: $0.path, query: $0.query, headers: $0.headers)
            })
        else { return nil }
        return writes
    }

    /// Checks each write of the batch and hands them to `writes` as one batch, then calls `ordered`; `reply` gets
    /// every answer, in order, once the loop answered them (a write refused before it reached the loop is answered
    /// in its place). Never waits.
    func order(
        _ requests: [HTTPRequest], in writes: WriteDecider, ordered: (@Sendable () -> Void)?,
        reply: @escaping @Sendable ([HTTPReply]) -> Void
    ) {
        guard let connection = requests.first?.connectionID else { return reply([]) }
        var loopWrites: [LoopWrite] = []
        var entries: [LoopEntry] = []
        for http in requests {
            let started = ContinuousClock.now
            do {
                let request = try RESTRequest(http, defaultNamespace: self.configuration.defaultNamespace)
                let (identity, _) = try self.identity(of: request)
                guard let plan = try self.planWrite(request, http, identity: identity) else {
                    preconditionFailure("\(http.method) shares batches but is not a plain write")
                }
                guard
                    let write = try self.access.loopWrite(
                        identity, namespace: request.namespace, mutations: plan.mutations, condition: nil, origin: nil)
                else {
                    entries.append(
                        LoopEntry(http: http, started: started, answer: .answered(plan.respond(.committed([])))))
                    continue
                }
                entries.append(LoopEntry(http: http, started: started, answer: .write(loopWrites.count, plan.respond)))
                loopWrites.append(write)
            } catch {
                entries.append(
                    LoopEntry(
                        http: http, started: started, answer: .answered(self.response(to: error, path: http.path))))
            }
        }
        let answered = entries
        writes.submit(connection: connection, loopWrites) { answers in
            reply(answered.map { self.reply(to: $0, answers: answers) })
        }
        ordered?()
    }

    /// A request of a batch handed to the write loop.
    private struct LoopEntry: Sendable {
        enum Answer: Sendable {
            /// Refused before it reached the loop.
            case answered(HTTPResponse)
            /// The loop's write at this index of the batch, and how its answer is made.
            case write(Int, @Sendable (WriteOutcome) -> HTTPResponse)
        }

        let http: HTTPRequest
        let started: ContinuousClock.Instant
        let answer: Answer
    }

    /// The reply to `entry` once the loop answered the batch, counted in the metrics.
    private func reply(to entry: LoopEntry, answers: [WriteBatch.Answer]) -> HTTPReply {
        let response: HTTPResponse
        switch entry.answer {
        case .answered(let answered):
            response = answered
        case .write(let index, let respond):
            switch answers[index] {
            case .success(let outcome): response = respond(outcome)
            case .failure(let error): response = self.response(to: error, path: entry.http.path)
            }
        }
        let reply = HTTPReply.response(response)
        self.record(entry.http, reply, since: entry.started)
        return reply
    }
}
