import HearthCore
package import HearthWire

/// One write handed to the write loop, checked and resolved by its front end (rules, write rules, server values):
/// what `Coordinator.submit` takes. It is handed on, never copied: the front end moves it into the loop's queue, and
/// the loop moves its mutations into the entries the shards log (`WriteDecider`).
package struct LoopWrite: Sendable {
    let namespace: String
    var mutations: [Mutation]
    let conditions: [WriteCondition]
    let now: Int64
    let origin: WriteOrigin?
    /// How the write is checked and ordered again when a guard its rules produced fails (`AccessControl.submit`,
    /// which decides again on the newer data); nil when the rules added none.
    let recheck: (@Sendable () async throws -> PendingWrite)?

    package init(
        namespace: String, mutations: [Mutation], conditions: [WriteCondition], now: Int64, origin: WriteOrigin?,
        recheck: (@Sendable () async throws -> PendingWrite)? = nil
    ) {
        self.namespace = namespace
        self.mutations = mutations
        self.conditions = conditions
        self.now = now
        self.origin = origin
        self.recheck = recheck
    }
}
