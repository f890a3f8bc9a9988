import HearthCore
public import HearthDatabase
import HearthNode
public import HearthRules
public import HearthWire

/// Writes under the rules: checked against the data they were decided on, and made only while that data is
/// unchanged.
///
/// Rules see `data`, `newData` and `root`, so a decision holds only as long as the data it read. The check runs
/// against the read view; the write then goes to the coordinator with a compare-and-set on every location the
/// rules read (their hashes as checked), which the shards verify atomically with the write, and which stay locked
/// through a multi-shard write's decision. When one of them changed in between, the write is checked again on the
/// newer data (what Firebase's single-threaded server gets by checking and writing in one step). Rules that read
/// nothing but `auth`, `$wildcards`, `now` and the written value itself add no condition, so such writes pipeline
/// and hot increments still commute.
extension AccessControl {
    /// Orders `mutations` if `identity` may make them (and `condition`, the client's own compare-and-set, holds).
    /// `origin` names the write so that it applies once (`Coordinator.submit`).
    /// - Throws: `AccessDeniedError` when the rules refuse the write, `UnrepresentableIncrementError` when the
    ///   shards find an increment's sum would overflow past what a number can hold; nothing is written.
    public func submit(
        _ identity: AuthIdentity, namespace: String, mutations: [Mutation], condition: WriteCondition? = nil,
        origin: WriteOrigin? = nil
    ) async throws -> PendingWrite {
        var attempt = 0
        while true {
            attempt += 1
            guard
                let checked = try self.check(
                    identity, namespace: namespace, mutations: mutations, condition: condition, origin: origin)
            else {
                return PendingWrite(
                    view: self.database.view, log: self.database.coordinator.log, state: .committed([], []))
            }
            let pending = try await self.database.coordinator.submit(
                namespace: namespace, mutations: mutations, conditions: checked.conditions, now: checked.now,
                origin: origin)
            guard checked.isGuarded, pending.isStale else { return pending }
            guard attempt < Self.maximumAttempts else { throw RulesContentionError(attempts: attempt) }
            // Wait until the read view shows what the failed check saw, then decide again on it, unless it was the
            // client's own condition that failed: that answer is the client's.
            _ = try await pending.outcome()
            if let condition,
                self.database.root(namespace).node(at: condition.path).hash != condition.expectedHash
            {
                return pending
            }
        }
    }

    /// Checks a write under the rules against the data of this moment.
    /// - Returns: the time its server values resolve at and the conditions to write it under (the client's own,
    ///   then a guard on every location the rules read, holding what they saw), and whether there are guards; nil
    ///   when the rules refuse it but it is the same write sent again after its first send applied (answered as
    ///   committed, as the first one was).
    /// - Parameter rules: the rules in force for `namespace` when the caller has them at hand; nil to take them now.
    /// - Throws: `AccessDeniedError` when the rules refuse it.
    func check(
        _ identity: AuthIdentity, namespace: String, mutations: [Mutation], condition: WriteCondition?,
        origin: WriteOrigin?, rules: InstalledRules? = nil
    ) throws -> (now: Int64, conditions: [WriteCondition], isGuarded: Bool)? {
        let now = self.database.now()
        // Rules that grant every write without a walk (open ones) read nothing: the common case makes no verdict.
        if self.grantsWithoutWalk(identity, namespace: namespace, writes: mutations.count, rules: rules) {
            return (now, condition.map { [$0] } ?? [], false)
        }
        // The data the check read, if it read any: the guards must hold exactly what it saw.
        var checked: Node?
        let verdict = self.checkWrite(
            identity, namespace: namespace, mutations: mutations,
            root: {
                let root = checked ?? self.database.root(namespace)
                checked = root
                return root
            }, now: now, rules: rules)
        let root = checked ?? Node.empty
        guard verdict.isAllowed else {
            // The same write sent again, when the rules read what the first one wrote (a create-only rule, say), is
            // refused by them now: it is answered as the first one was.
            if let origin, self.database.view.hasApplied(origin) { return nil }
            throw AccessDeniedError()
        }
        // Rules that read nothing (open ones, say) leave nothing to guard: the common case costs no path lists.
        if verdict.reads.isEmpty { return (now, condition.map { [$0] } ?? [], false) }
        let dependencies = verdict.reads.dependencies(
            determined: Self.determinedPaths(mutations),
            kindDetermined: mutations.compactMap { $0.incrementDelta == nil ? nil : $0.path })
        let guards = dependencies.map {
            WriteCondition(path: $0, expectedHash: root.node(at: $0).hash)
        }
        return (now, (condition.map { [$0] } ?? []) + guards, !guards.isEmpty)
    }

    /// Whether `identity` may make any write of `count` paths to `namespace` without the rules being walked, as
    /// `checkWrite` decides it: an administrator's, or one the rules grant at once (`grantsWithoutWalk(writes:)`).
    private func grantsWithoutWalk(
        _ identity: AuthIdentity, namespace: String, writes count: Int, rules: InstalledRules?
    ) -> Bool {
        guard case .user = identity else { return true }
        return (rules ?? self.rules(namespace)).document.grantsWithoutWalk(writes: count)
    }

    /// Checks and makes a write, waiting until it is durable; see `submit`.
    public func write(
        _ identity: AuthIdentity, namespace: String, mutations: [Mutation], condition: WriteCondition? = nil
    ) async throws -> WriteOutcome {
        try await self.submit(identity, namespace: namespace, mutations: mutations, condition: condition).outcome()
    }

    /// How many times a write whose rules' data keeps changing under it is checked before it is refused as
    /// unavailable (the client retries later).
    static let maximumAttempts = 64

    /// The locations a write sets to values that do not depend on what was there: reading `newData` inside them
    /// reads only the write.
    static func determinedPaths(_ mutations: [Mutation]) -> [Path] {
        mutations.compactMap { mutation in
            guard case .set(let path, let value) = mutation, !value.hasServerValues else { return nil }
            return path
        }
    }
}

/// A write whose rules read data that kept changing under it for every one of its attempts.
struct RulesContentionError: WriteUnavailableError {
    let attempts: Int

    var description: String {
        "The data the security rules read for this write changed \(attempts) times while it was checked; retry shortly."
    }
}

/// The security rules refused a read or a write (Firebase's `permission_denied`).
public struct AccessDeniedError: Error, Sendable, CustomStringConvertible {
    public var description: String { "Permission denied" }
}
