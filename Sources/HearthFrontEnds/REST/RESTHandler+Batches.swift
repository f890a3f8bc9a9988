import HearthDatabase
public import HearthNet
import HearthNode

/// Pipelined requests of one connection that arrived together (`HTTPRequestHandler.handle(batch:)`): its plain
/// writes are ordered one after another as they come, and only then answered, in order, so a server-side writer
/// pipelining PUTs on one keep-alive connection (as firebase-admin does) writes like a realtime client pipelining
/// puts: many writes to a log turn, and each listening connection hears a turn's events in one send.
extension RESTHandler {
    /// PUT, PATCH, POST and DELETE of data, without `if-match` (a compare-and-set waits for its turn at its
    /// location), a method override or a `writeSizeLimit` (which reads the data it replaces), share batches. Paths
    /// under `/.` (rules, operations, the realtime transports) never do; the data's root, `/.json`, does.
    public func sharesBatches(
        method: String, path: String, query: [(name: String, value: String)], headers: HTTPHeaders
    ) -> Bool {
        Self.isBatchedMethod(method) && !Self.isDotPath(path) && headers["if-match"] == nil
            && headers["X-HTTP-Method-Override"] == nil
            && !query.contains { $0.name == "x-http-method-override" || $0.name == "writeSizeLimit" }
    }

    /// Whether `path` names one of the node's own locations (`/.settings/rules.json`, `/.backup`, …) rather than data:
    /// every such path begins with `/.`, except the root of the data, `/.json`.
    static func isDotPath(_ path: String) -> Bool {
        path.hasPrefix("/.") && path != "/.json"
    }

    /// Orders each plain write as it comes; a request that shares no batch (the last one, if any) is handled once
    /// every write before it is answered, so it sees them all. A write refused before it was ordered is answered in
    /// its place.
    public func handle(batch requests: [HTTPRequest]) async -> [HTTPReply] {
        await self.handle(batch: requests, ordered: {})
    }

    /// Handles the batch as `handle(batch:)` does and, when every request of it shares batches, calls `ordered`
    /// once all its writes are submitted and before waiting for their answers: the connection's next writes are
    /// then ordered after these while these are made durable. Each answer still waits for its write to be durable
    /// and visible. On a single node such a batch goes to the write loop whole (`order(_:in:ordered:reply:)`).
    public func handle(batch requests: [HTTPRequest], ordered isOrdered: @escaping @Sendable () -> Void) async
        -> [HTTPReply]
    {
        if let writes = self.loopWrites(for: requests) {
            return await withCheckedContinuation { continuation in
                self.order(requests, in: writes, ordered: isOrdered) { continuation.resume(returning: $0) }
            }
        }
        if requests.contains(where: { !Self.isDotPath($0.path) }) { await self.database.waitUntilServing() }
        var replies: [HTTPReply] = []
        var ordered: [Ordered] = []
        var sharesAll = true
        for http in requests {
            guard
                http.sharesBatches
                    ?? self.sharesBatches(
                        method: http.method, path: http.path, query: http.query, headers: http.headers)
            else {
                sharesAll = false
                replies += await self.answer(ordered)
                ordered = []
                replies.append(await self.handle(http))
                continue
            }
            let started = ContinuousClock.now
            do {
                let request = try RESTRequest(http, defaultNamespace: self.configuration.defaultNamespace)
                let (identity, _) = try self.identity(of: request)
                let write = try await self.orderWrite(request, http, identity: identity)
                ordered.append(Ordered(http: http, started: started, write: .success(write)))
            } catch {
                ordered.append(Ordered(http: http, started: started, write: .failure(error)))
            }
        }
        if sharesAll { isOrdered() }
        return replies + (await self.answer(ordered))
    }

    /// Whether `method` is one of the writes that share batches: compared as the few literals they are, not hashed
    /// into a set (every request is asked this several times as its connection reads, batches and orders it).
    private static func isBatchedMethod(_ method: String) -> Bool {
        switch method {
        case "PUT", "PATCH", "POST", "DELETE": true
        default: false
        }
    }

    /// A request of a batch taken in turn: its write ordered, or why it was refused.
    private struct Ordered {
        let http: HTTPRequest
        let started: ContinuousClock.Instant
        /// The ordered write; nil for a request `orderWrite` does not order ahead of its answer.
        let write: Result<OrderedRESTWrite?, any Error>
    }

    /// Answers each request in turn, waiting for each ordered write.
    private func answer(_ ordered: [Ordered]) async -> [HTTPReply] {
        var replies: [HTTPReply] = []
        for entry in ordered {
            let reply: HTTPReply
            do {
                guard let write = try entry.write.get() else {
                    replies.append(await self.handle(entry.http))
                    continue
                }
                reply = try await write.reply()
            } catch {
                reply = .response(self.response(to: error, path: entry.http.path))
            }
            self.record(entry.http, reply, since: entry.started)
            replies.append(reply)
        }
        return replies
    }
}
