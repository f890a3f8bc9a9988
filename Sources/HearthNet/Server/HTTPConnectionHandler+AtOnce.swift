/// Batches the application takes on the reactor thread (`HTTPRequestHandler.handleAtOnce`): no hand-off to the
/// server's request stream and no task for them; their replies come back through the reactor's inbox like any other.
extension HTTPConnectionHandler {
    /// Offers batch `number` (already in `inFlight`) to the application here. Called only when every batch ahead of
    /// it is ordered, so it cannot overtake one; its replies still wait for theirs (`deliver`). A batch of more than
    /// one request that the application takes is ordered, so the requests behind it are read now, as
    /// `HTTPBatchOrdered` would have them read.
    /// - Returns: whether the application took it (else it goes to the server's task group).
    func takeAtOnce(_ requests: [HTTPRequest], number: UInt64, on connection: Connection) -> Bool {
        guard self.outstanding.beginAtOnce() else { return false }
        let inbox = connection.reactor.inbox
        let connectionID = connection.id
        let outstanding = self.outstanding
        let isTaken = self.application.handleAtOnce(batch: requests) { replies in
            // Replies given while the write loop answers a turn reach each reactor together, in one wake-up; the
            // batch leaves the outstanding count once they reached its connection's handler (or were discarded).
            let reply = HTTPBatchReply(batch: number, replies: replies, outstanding: outstanding)
            FlushBatch.send(.message(connectionID: connectionID, reply), to: inbox)
        }
        guard isTaken else {
            self.outstanding.end()
            return false
        }
        if requests.count > 1 { self.batchOrdered(number, on: connection) }
        return true
    }
}
