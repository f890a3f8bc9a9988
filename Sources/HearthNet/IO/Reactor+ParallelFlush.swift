import Synchronization

/// Flushing many connections in one turn from more than one thread.
///
/// One write to a location that 10,000 clients listen to arrives here as 10,000 flushes: one `flushMany` command
/// when the read view published it inside a `FlushBatch`, or single flush commands that queued while the reactor
/// was busy when it published a lone change as it went. Each `send` of those runs the TCP path on the calling core
/// (on loopback the receiver's too), about 10 µs apiece, so from one thread the last listener hears the write some
/// 100 ms after the first. With send helpers (`Settings.sendHelpers`), a batch of at least
/// `Settings.parallelFlushMinimum` connections is sent by the reactor and the helpers together, each taking the next
/// connection in turn (`sendQueued`: socket, writer and counters only); then the reactor flushes each connection once
/// more itself, which finds the queue empty, or does what only the reactor may: tell the handler its output drained,
/// close after a failure or an overflow, finish a requested close.
extension Reactor {
    /// Performs the inbox's commands in order; each run of flush commands (a `flushMany`, or single flushes queued
    /// one after another while the reactor was busy, as the read view sends a lone change) is flushed as one batch.
    func performAll(_ commands: [ReactorInbox.Command]) {
        var index = 0
        while index < commands.count {
            var run: [UInt64] = []
            scan: while index < commands.count {
                switch commands[index] {
                case .flush(let connectionID): run.append(connectionID)
                // A lone batch is flushed as it came, not copied into a run of its own.
                case .flushMany(let connectionIDs) where run.isEmpty: run = connectionIDs
                case .flushMany(let connectionIDs): run += connectionIDs
                default: break scan
                }
                index += 1
            }
            if run.isEmpty {
                self.perform(commands[index])
                index += 1
            } else {
                self.flushMany(run)
            }
        }
    }

    /// Flushes each of `connectionIDs`, sending from the helpers and the reactor at once when they are many.
    func flushMany(_ connectionIDs: [UInt64]) {
        guard let helpers = self.sendHelpers, connectionIDs.count >= self.settings.parallelFlushMinimum else {
            // From the reactor alone a connection named twice is harmless: its second flush finds nothing queued.
            for connectionID in connectionIDs { self.flushIfOpen(connectionID) }
            return
        }
        // Shared out, each connection must be named once, so that no two threads write one socket.
        var seen = Set<UInt64>()
        let batch = connectionIDs.compactMap { connectionID -> Connection? in
            guard let connection = self.connections[connectionID], connection.state != .connecting,
                seen.insert(connectionID).inserted
            else { return nil }
            return connection
        }
        self.counters.parallelFlushes.add(1, ordering: .relaxed)
        helpers.send(batch.map { (descriptor: $0.descriptor, writer: $0.writer) }, gather: self.writeBuffer)
        for connection in batch where !connection.isClosed { self.flush(connection) }
    }

    /// Flushes connection `connectionID` if it is still open and connected.
    func flushIfOpen(_ connectionID: UInt64) {
        if let connection = self.connections[connectionID], connection.state != .connecting {
            self.flush(connection)
        }
    }
}
