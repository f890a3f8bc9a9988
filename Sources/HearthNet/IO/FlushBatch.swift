import HearthSystem

/// Writes made inside `FlushBatch.collecting` queue their bytes as usual but ask their reactor to send only when the
/// batch ends, in one command per reactor: one send per connection for everything the batch queued for it. The read
/// view publishes each batch of commits inside one, so a connection listening to a busy location gets the batch's
/// events in one `send` instead of waking the reactor for each (as Redis writes a client's output buffer once per
/// event-loop turn).
package enum FlushBatch {
    @TaskLocal static var current: Collector?

    /// Runs `body`; the flushes its writes ask for are sent when it returns. Inside another batch, it joins that one.
    package static func collecting<T>(_ body: () throws -> T) rethrows -> T {
        guard Self.current == nil else { return try body() }
        let collector = Collector()
        defer { collector.flush() }
        return try Self.$current.withValue(collector) { try body() }
    }

    /// The connections whose writer asked for a flush during the batch, each once (a writer asks again only after
    /// its reactor has begun flushing).
    final class Collector: Sendable {
        private let pending = Lock<[(inbox: ReactorInbox, connectionID: UInt64)]>([])

        func add(_ inbox: ReactorInbox, connectionID: UInt64) {
            self.pending.withLock { $0.append((inbox, connectionID)) }
        }

        /// Sends each reactor one command for all of its connections, so it sees the whole batch in one turn.
        func flush() {
            let pending = self.pending.withLock { pending in
                defer { pending = [] }
                return pending
            }
            var inboxes: [(inbox: ReactorInbox, connectionIDs: [UInt64])] = []
            for (inbox, connectionID) in pending {
                if let index = inboxes.firstIndex(where: { $0.inbox === inbox }) {
                    inboxes[index].connectionIDs.append(connectionID)
                } else {
                    inboxes.append((inbox, [connectionID]))
                }
            }
            for (inbox, connectionIDs) in inboxes {
                inbox.send(
                    connectionIDs.count == 1
                        ? .flush(connectionID: connectionIDs[0]) : .flushMany(connectionIDs: connectionIDs))
            }
        }
    }
}
