import HearthDatabase
public import HearthNet
import HearthNode
import HearthWire

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
        if ordered == nil, requests.count == 1, let writes = self.access.writes, let http = requests.first,
            await self.compareAndSet(http, in: writes, reply: reply)
        {
            return
        }
        guard let writes = self.loopWrites(for: requests) else {
            return await self.replyAwaited(batch: requests, ordered: ordered, reply: reply)
        }
        self.order(requests, in: writes, ordered: ordered, reply: reply)
    }

    /// On a single node, a batch of plain writes is ordered on the reactor thread that read it, as
    /// `handle(batch:ordered:reply:)` would order it in a task: parsed, checked against the write rules and the
    /// security rules, and handed to the write loop, whose completion replies. Anything else is declined, and goes
    /// to `handle(batch:ordered:reply:)`.
    public func handleAtOnce(batch requests: [HTTPRequest], reply: @escaping @Sendable ([HTTPReply]) -> Void) -> Bool {
        guard let writes = self.loopWrites(for: requests) else { return false }
        self.order(requests, in: writes, ordered: nil, reply: reply)
        return true
    }

    /// The write loop, when this node has one and every request of the batch is a plain write for it. A request the
    /// server read says whether it shares batches (asked once as it was read); only one built elsewhere is asked.
    func loopWrites(for requests: [HTTPRequest]) -> WriteDecider? {
        guard let writes = self.access.writes else { return nil }
        // Each request is read where it lies: iterating the array would copy, and retain, every request.
        let sharesAll = requests.withUnsafeBufferPointer { requests in
            requests.indices.allSatisfy { index in
                requests[index].sharesBatches
                    ?? self.sharesBatches(
                        method: requests[index].method, path: requests[index].path, query: requests[index].query,
                        headers: requests[index].headers)
            }
        }
        return sharesAll ? writes : nil
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
        entries.reserveCapacity(requests.count)
        // Each request is read where it lies: taking it out of the array (as iterating or subscripting it does) copies
        // it, retaining its fields, for every use.
        requests.withUnsafeBufferPointer { requests in
            for index in requests.indices {
                entries.append(self.entry(for: requests[index], adding: &loopWrites))
            }
        }
        let answered = entries
        writes.submit(connection: connection, loopWrites) { answers in
            // Each entry read where it lies: mapping the entries copied each (its label's strings and its answer's
            // closure retained, then released).
            var replies: [HTTPReply] = []
            replies.reserveCapacity(answered.count)
            for index in answered.indices { replies.append(self.reply(to: answered, at: index, answers: answers)) }
            reply(replies)
        }
        ordered?()
    }

    /// The entry of one request of a batch: its write, checked and added to `loopWrites`, or its answer when it was
    /// refused or changes nothing. The entry keeps the request's label, not the request.
    private func entry(for http: borrowing HTTPRequest, adding loopWrites: inout [LoopWrite]) -> LoopEntry {
        let started = ContinuousClock.now
        let label = RequestLabel(http)
        do {
            let request = try RESTRequest(http, defaultNamespace: self.configuration.defaultNamespace)
            let (identity, _) = try self.identity(of: request)
            guard let plan = try self.planWrite(request, http, identity: identity) else {
                preconditionFailure("\(label.method) shares batches but is not a plain write")
            }
            guard
                let write = try self.access.loopWrite(
                    identity, namespace: request.namespace, mutations: plan.mutations, condition: nil, origin: nil)
            else {
                return LoopEntry(label: label, started: started, answer: .answered(plan.respond(.committed([]))))
            }
            loopWrites.append(write)
            return LoopEntry(label: label, started: started, answer: .write(loopWrites.count - 1, plan.respond))
        } catch {
            return LoopEntry(
                label: label, started: started, answer: .answered(.response(self.response(to: error, path: label.path)))
            )
        }
    }

    /// A PUT or DELETE with `if-match` (a compare-and-set), made through the write loop once its turn at the location
    /// comes, and replied from the loop's completion.
    /// - Returns: false when `http` is not one (nothing was done).
    private func compareAndSet(
        _ http: HTTPRequest, in writes: WriteDecider, reply: @escaping @Sendable ([HTTPReply]) -> Void
    ) async -> Bool {
        guard let expected = http.headers["if-match"], !Self.isDotPath(http.path) else { return false }
        let started = ContinuousClock.now
        let answer = { @Sendable (response: HTTPResponse) in
            let answered = HTTPReply.response(response)
            self.record(http, answered, since: started)
            reply([answered])
        }
        do {
            let request = try RESTRequest(http, defaultNamespace: self.configuration.defaultNamespace)
            guard request.method == .put || request.method == .delete else { return false }
            let (identity, _) = try self.identity(of: request)
            let mutation = try self.setMutation(request, http, identity: identity)
            let condition = WriteCondition(path: request.path, expectedHash: expected == "null_etag" ? "" : expected)
            let turn = await self.conditionalWrites.admit(
                connection: http.connectionID, target: .init(namespace: request.namespace, path: request.path),
                etag: expected)
            let write: LoopWrite?
            do {
                write = try self.access.loopWrite(
                    identity, namespace: request.namespace, mutations: [mutation], condition: condition, origin: nil)
            } catch {
                self.end(turn, .failure(error))
                throw error
            }
            guard let write else {
                self.end(turn, .success(.committed([])))
                answer(
                    self.setResponse(request, http, identity: identity, outcome: .committed([]), isConditional: true))
                return true
            }
            writes.submit(connection: http.connectionID, write) { outcome in
                self.end(turn, outcome)
                switch outcome {
                case .success(let outcome):
                    answer(self.setResponse(request, http, identity: identity, outcome: outcome, isConditional: true))
                case .failure(let error):
                    answer(self.response(to: error, path: http.path))
                }
            }
        } catch {
            answer(self.response(to: error, path: http.path))
        }
        return true
    }

    /// A request of a batch handed to the write loop.
    private struct LoopEntry: Sendable {
        enum Answer: Sendable {
            /// Refused before it reached the loop, or a write that changes nothing.
            case answered(HTTPReply)
            /// The loop's write at this index of the batch, and how its answer is made.
            case write(Int, @Sendable (WriteOutcome) -> HTTPReply)
        }

        let label: RequestLabel
        let started: ContinuousClock.Instant
        let answer: Answer
    }

    /// The reply to entry `index` of `entries` once the loop answered the batch, counted in the metrics. The entry
    /// is read where it lies (passed on, it was copied: its label's strings and its answer's closure retained).
    private func reply(to entries: [LoopEntry], at index: Int, answers: [WriteBatch.Answer]) -> HTTPReply {
        let reply: HTTPReply
        switch entries[index].answer {
        case .answered(let answered):
            reply = answered
        case .write(let position, let respond):
            switch answers[position] {
            case .success(let outcome): reply = respond(outcome)
            case .failure(let error): reply = .response(self.response(to: error, path: entries[index].label.path))
            }
        }
        self.record(entries[index].label, reply, since: entries[index].started)
        return reply
    }
}
