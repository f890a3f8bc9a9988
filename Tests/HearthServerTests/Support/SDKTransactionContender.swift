import HearthCore
import HearthTestKit

/// One app instance running transactions the way the official JS SDK does (firebase-js-sdk `core/Repo.ts`:
/// `repoStartTransaction`, `repoSendTransactionQueue`, `repoRerunTransactionQueue`), over a `WireTestClient` that
/// listens at the location as an app showing that data does: run the update on the cached value, send `p` with
/// the cached value's hash, and on `datastale` rerun at once on whatever the cache holds by then (the SDK does not
/// wait for a push); give up after 25 attempts.
///
/// Blocking, and used by one thread at a time (a test hands it from one dedicated thread to the next between
/// waves), hence `@unchecked Sendable`.
final class SDKTransactionContender: @unchecked Sendable {
    /// What one transaction did.
    struct Outcome: Sendable {
        var committed: Bool
        /// Puts sent (the SDK's retry count).
        var attempts: Int
        /// Reruns on a cached value whose hash is still the one the server just refused: the `datastale` arrived
        /// before the value that beat the put.
        var staleReruns: Int
        /// The last answer's status (`ok`, `datastale` when it gave up, or an error status).
        var status: String
    }

    /// The SDK's `MAX_TRANSACTION_RETRIES`.
    static let sdkMaximumAttempts = 25

    /// Attempts before a transaction gives up (the SDK's limit unless a test asks for more).
    let maximumAttempts: Int

    let client: WireTestClient
    let path: Path
    /// The data this session's listen has received, as a tree from the root.
    private(set) var cache = Node.empty

    /// Connects and listens at `path`, caching the data that arrives.
    init(port: Int, path: String, maximumAttempts: Int = SDKTransactionContender.sdkMaximumAttempts) throws {
        self.maximumAttempts = maximumAttempts
        self.client = try WireTestClient(port: port)
        self.path = try Path(validating: path)
        let answer = try self.client.call("q", #"{"p":"\#(path)","h":""}"#)
        guard answer["s"] == .string("ok") else {
            throw TestClientError(description: "listen at \(path) refused: \(answer)")
        }
        try self.applyPushes()
    }

    /// The cached value at the location.
    var cachedValue: Node { self.cache.node(at: self.path) }

    /// Reads pushes until the cached value at the location hashes to `hash` (the last wave's result arrived).
    func waitForValue(hash: String) throws {
        try self.applyPushes()
        while self.cachedValue.hash != hash {
            try self.apply(try self.client.nextPush())
        }
    }

    /// Runs one transaction with `update` (given the cached value; `nil` aborts, as `undefined` does in the SDK).
    func run(_ update: (Node) -> Node?) throws -> Outcome {
        var hash = self.cachedValue.hash
        var output = update(self.cachedValue)
        var outcome = Outcome(committed: false, attempts: 0, staleReruns: 0, status: "nodata")
        while let value = output {
            outcome.attempts += 1
            let data = String(decoding: value.jsonBytes(), as: UTF8.self)
            let answer = try self.client.call("p", #"{"p":"\#(self.path)","d":\#(data),"h":"\#(hash)"}"#)
            try self.applyPushes()
            outcome.status = answer["s"]?.stringValue ?? "missing status"
            if outcome.status == "ok" {
                outcome.committed = true
                return outcome
            }
            guard outcome.status == "datastale", outcome.attempts < self.maximumAttempts else { return outcome }
            let refused = hash
            hash = self.cachedValue.hash
            if hash == refused { outcome.staleReruns += 1 }
            output = update(self.cachedValue)
        }
        return outcome
    }

    /// Applies the pushes the client read while waiting for answers, oldest first.
    private func applyPushes() throws {
        while !self.client.pushes.isEmpty {
            try self.apply(self.client.pushes.removeFirst())
        }
    }

    /// Applies one `d` (overwrite) or `m` (merge) push to the cache; other pushes carry no data.
    private func apply(_ push: JSONValue) throws {
        guard let body = push["b"], let at = body["p"]?.stringValue, let data = body["d"] else { return }
        let base = try Path(validating: at)
        switch push["a"]?.stringValue {
        case "d":
            self.cache = self.cache.setting(try WriteValue(json: data, depth: base.count).node, at: base)
        case "m":
            guard case .object(let members) = data else { return }
            for (relative, value) in members {
                let target = base.appending(try Path(validating: relative.string))
                self.cache = self.cache.setting(try WriteValue(json: value, depth: target.count).node, at: target)
            }
        default:
            return
        }
    }
}
