import HearthCore
import HearthDatabase
import HearthNode
import HearthRules
import HearthWire

/// Writes handed on without a task waiting for each: the realtime protocol's and REST's batches.
extension AccessControl {
    /// Orders `mutations` as `submit` does, in order with `connection`'s other writes, and calls `completion` once
    /// with the answer `PendingWrite.outcome()` would give. On a single node the write is checked here and handed to
    /// the write loop, and this returns at once; elsewhere it returns once `submit` has ordered the write.
    /// - Throws: what refused the write before it was ordered (`AccessDeniedError` when the rules refuse it):
    ///   nothing is written and `completion` is not called. A refusal or failure once it is ordered (an increment
    ///   that would overflow, the log's failure) reaches `completion`.
    func order(
        _ identity: AuthIdentity, namespace: String, mutations: [Mutation], condition: WriteCondition?,
        origin: WriteOrigin?, connection: UInt64,
        completion: @escaping @Sendable (Result<WriteOutcome, any Error>) -> Void
    ) async throws {
        guard let writes = self.writes else {
            let pending = try await self.submit(
                identity, namespace: namespace, mutations: mutations, condition: condition, origin: origin)
            return pending.whenDone(completion)
        }
        guard
            let write = try self.loopWrite(
                identity, namespace: namespace, mutations: mutations, condition: condition, origin: origin)
        else {
            return completion(.success(.committed([])))
        }
        writes.submit(connection: connection, write, completion: completion)
    }

    /// Checks and makes a write of `connection`, waiting for its answer (`write`): on a single node through the write
    /// loop, with one continuation resumed once the write is shown, instead of a hop onto the shards and a wait for
    /// the log and another for the view.
    func write(
        _ identity: AuthIdentity, namespace: String, mutations: [Mutation], condition: WriteCondition?,
        connection: UInt64
    ) async throws -> WriteOutcome {
        guard let writes = self.writes else {
            return try await self.write(identity, namespace: namespace, mutations: mutations, condition: condition)
        }
        guard
            let write = try self.loopWrite(
                identity, namespace: namespace, mutations: mutations, condition: condition, origin: nil)
        else { return .committed([]) }
        return try await withCheckedThrowingContinuation { continuation in
            writes.submit(connection: connection, write) { answer in continuation.resume(with: answer) }
        }
    }

    /// The write as the loop takes it, checked under the rules now; nil when it is a write sent again whose first
    /// send applied (answered as committed). A write whose rules read data carries their guards, and a way to be
    /// checked again (`submit`) should one fail.
    /// - Parameter rules: the rules in force for `namespace` when the caller has them at hand
    ///   (`rules(_:cachedIn:)`); nil to take them now. A recheck takes them again.
    /// - Throws: `AccessDeniedError` when the rules refuse it.
    func loopWrite(
        _ identity: AuthIdentity, namespace: String, mutations: [Mutation], condition: WriteCondition?,
        origin: WriteOrigin?, rules: InstalledRules? = nil
    ) throws -> LoopWrite? {
        guard
            let checked = try self.check(
                identity, namespace: namespace, mutations: mutations, condition: condition, origin: origin,
                rules: rules)
        else { return nil }
        var recheck: (@Sendable () async throws -> PendingWrite)?
        if checked.isGuarded {
            recheck = { @Sendable [self] in
                try await self.submit(
                    identity, namespace: namespace, mutations: mutations, condition: condition, origin: origin)
            }
        }
        return LoopWrite(
            namespace: namespace, mutations: mutations, conditions: checked.conditions, now: checked.now,
            origin: origin, recheck: recheck)
    }
}
