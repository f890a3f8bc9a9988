import HearthCore
import HearthSystem
import Synchronization

/// The write-side actions: put (with compare-and-set), merge, and the onDisconnect queue (reference §1.6, §1.9).
///
/// Everything is validated before anything is written; every write goes through `Database.write`, so it is atomic,
/// durable and fanned out to every listener — including this session's own, ahead of the `ok`.
extension WireSession {
    /// Validates a put and orders it; its acknowledgement comes from `WireAcknowledgements`.
    func submitPut(_ body: JSONValue) async throws -> WireAcknowledgements.Entry.Submission {
        let mutation = try Self.putMutation(body)
        try self.authorize(.write, mutation.path)
        var condition: WriteCondition?
        if let hash = body["h"], hash != .null {
            guard let expected = hash.stringValue else {
                throw WireProtocolError(.invalidRequest, "A put's hash (h) must be a string.")
            }
            condition = WriteCondition(path: mutation.path, expectedHash: expected)
        }
        let write = try await self.context.database.submit(
            namespace: self.namespace, mutations: [mutation], condition: condition)
        return (write, mutation.path)
    }

    /// Validates a merge and orders it; its acknowledgement comes from `WireAcknowledgements`.
    func submitMerge(_ body: JSONValue) async throws -> WireAcknowledgements.Entry.Submission {
        let mutations = try Self.mergeMutations(body)
        for mutation in mutations { try self.authorize(.write, mutation.path) }
        let path = try Self.path(body, allowPriority: false).path
        let write = try await self.context.database.submit(namespace: self.namespace, mutations: mutations)
        return (write, path)
    }

    /// The response to a write once it is durable: `ok`, or `datastale` when its compare-and-set failed.
    static func acknowledgement(id: Int64, result: Result<WriteOutcome, any Error>, path: Path) -> [UInt8] {
        switch result {
        case .success(.committed):
            return WireMessage.ok(id: id)
        case .success(.conditionFailed):
            return WireMessage.failure(
                id: id,
                WireProtocolError(
                    .dataStale, "The data at \(path) changed since the client read it; retry with the new value."))
        case .failure:
            return WireMessage.failure(
                id: id, WireProtocolError(.unavailable, "The database could not complete the write; retry shortly."))
        }
    }

    func registerOnDisconnect(action: String, body: JSONValue) throws -> [UInt8] {
        let path = try Self.path(body, allowPriority: action == "o").path
        let mutations = action == "o" ? [try Self.putMutation(body)] : try Self.mergeMutations(body)
        for mutation in mutations { try self.authorize(.write, mutation.path) }
        self.shared.withLock { $0.onDisconnect.append(WireOnDisconnect(path: path, mutations: mutations)) }
        return Self.emptyObject
    }

    /// `oc`: drops queued operations registered at `p` or below it.
    func cancelOnDisconnect(_ body: JSONValue) throws -> [UInt8] {
        let path = try Self.path(body, allowPriority: false).path
        self.shared.withLock { $0.onDisconnect.removeAll { path.contains($0.path) } }
        return Self.emptyObject
    }

    /// Runs one queued operation after the client went away: re-checked against the access policy, server values
    /// resolved now. Failures are logged; there is nobody left to tell.
    func runOnDisconnect(_ operation: WireOnDisconnect) async {
        guard operation.mutations.allSatisfy({ self.isAllowed(.write, $0.path) }), !operation.mutations.isEmpty else {
            return
        }
        do {
            _ = try await self.context.database.write(namespace: self.namespace, mutations: operation.mutations)
        } catch {
            self.context.log.error(
                "wire.on_disconnect_failed", ["path": "\(operation.path)", "error": "\(error)"])
        }
    }

    /// The mutation of a put-shaped body: `p` (may end in `.priority`) and `d`.
    static func putMutation(_ body: JSONValue) throws(WireProtocolError) -> Mutation {
        let (path, targetsPriority) = try Self.path(body, allowPriority: true)
        guard let data = body["d"] else {
            throw WireProtocolError(.invalidData, "A write needs its value as \"d\" (null deletes).")
        }
        return try Self.mutation(path: path, targetsPriority: targetsPriority, json: data)
    }

    /// The mutations of a merge-shaped body: `d` maps relative paths (which may end in `/.priority`) to values.
    /// - Throws: `.invalidData` when `d` is not an object, a key is not a valid path, or two paths overlap.
    static func mergeMutations(_ body: JSONValue) throws(WireProtocolError) -> [Mutation] {
        let base = try Self.path(body, allowPriority: false).path
        guard case .object(let members)? = body["d"] else {
            throw WireProtocolError(.invalidData, "A merge's data (d) must be an object of relative paths to values.")
        }
        var mutations: [Mutation] = []
        for (relative, json) in members.sorted(by: { $0.key < $1.key }) {
            let (path, targetsPriority) = try Self.path(relative, base: base, allowPriority: true)
            mutations.append(try Self.mutation(path: path, targetsPriority: targetsPriority, json: json))
        }
        let paths = mutations.map(\.path).sorted()
        for (first, second) in zip(paths, paths.dropFirst()) where first.contains(second) {
            throw WireProtocolError(
                .invalidData, "Merge paths \(first) and \(second) overlap; no path may equal or lie inside another.")
        }
        return mutations
    }

    private static func mutation(path: Path, targetsPriority: Bool, json: JSONValue) throws(WireProtocolError)
        -> Mutation
    {
        let value: WriteValue
        do {
            value = try WriteValue(json: json, depth: path.count)
        } catch {
            throw WireProtocolError(.invalidData, "Invalid data at \(path): \(error)")
        }
        guard targetsPriority else { return .set(path, value) }
        switch value.node.leafValue {
        case .int?, .double?, .string?: return .setPriority(path, value)
        case nil where value.node.isEmpty || value.hasServerValues: return .setPriority(path, value)
        default:
            throw WireProtocolError(.invalidData, "Invalid priority at \(path): use a number, a string or null.")
        }
    }
}
