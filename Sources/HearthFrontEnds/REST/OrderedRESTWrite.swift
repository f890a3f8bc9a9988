import HearthDatabase
import HearthNet

/// A REST write ordered ahead of its answer: checked and placed in its shard's order when it arrives, answered once
/// it is durable, applied and handed to its listeners (`PendingWrite.outcome`). Pipelined writes of one connection
/// are all ordered before the first is answered, so they share log turns and their events reach each listening
/// connection together, as a realtime client's pipelined puts do.
struct OrderedRESTWrite {
    let pending: PendingWrite
    /// The answer once the write's outcome is known.
    let respond: @Sendable (WriteOutcome) -> HTTPReply

    /// Waits for the write's outcome and answers it.
    /// - Throws: what `PendingWrite.outcome` throws (the write's log stopped, or the node is closing).
    func reply() async throws -> HTTPReply {
        self.respond(try await self.pending.outcome())
    }
}
