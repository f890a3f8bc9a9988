import Foundation
package import HearthCore
import HearthNet
package import HearthSystem

/// One `GET /.backup` answer: the backup file of a cut taken when the request was served, encoded record by record
/// on a thread of its own and sent as the client takes it. The encoder waits while more than `queuedBytesLimit`
/// bytes are queued for the client, so a backup costs the node that much memory beyond the captured roots (which
/// share their nodes with the live view) however large the database is, and never trips the connection's outbound
/// bound; a client that takes nothing for `stallLimit` is given up on. A failure (or the client going away) stops the
/// stream before its trailer, so what the client holds can never pass for a complete backup.
package final class BackupStream: HTTPStreamSession {
    /// Bytes gathered before they are handed to the connection as one chunk.
    static let chunkBytes = 256 << 10
    /// The most bytes left queued for the client while the encoder waits for it.
    static let queuedBytesLimit = 4 << 20
    /// How long the encoder waits for a client that takes nothing of what is queued before it gives up on it.
    static let stallLimit: Duration = .seconds(60)

    private let header: BackupHeader
    private let roots: [String: Node]
    /// This backup's place among those the node sends at once, given back when the stream is dropped.
    private let slot: BackupSlots.Slot
    private let log: Log
    private let closed = Lock(false)

    package init(header: BackupHeader, roots: [String: Node], slot: BackupSlots.Slot, log: Log) {
        self.header = header
        self.roots = roots
        self.slot = slot
        self.log = log
    }

    func start(_ writer: ConnectionWriter) {
        do {
            try DedicatedThread.start(name: "hearth-backup") { self.send(to: writer) }.detach()
        } catch {
            self.log.error("backup.failed", ["error": "\(error)"])
            writer.close()
        }
    }

    func connectionClosed() {
        self.closed.withLock { $0 = true }
    }

    /// Encodes the backup into the connection, then ends the response.
    private func send(to writer: ConnectionWriter) {
        let started = ContinuousClock.now
        var sink = ConnectionSink(writer: writer, closed: self.closed)
        do {
            try BackupEncoder.encode(header: self.header, roots: self.roots, into: &sink)
            try sink.flush()
            self.log.info(
                "backup.sent",
                [
                    "bytes": "\(sink.sent)", "namespaces": "\(self.header.namespaces.count)",
                    "cut": self.header.cut.map(String.init).joined(separator: ","),
                    "seconds": String(format: "%.3f", Database.seconds(ContinuousClock.now - started)),
                ])
        } catch {
            self.log.error("backup.failed", ["bytes": "\(sink.sent)", "error": "\(error)"])
        }
        writer.close()
    }

    /// Hands bytes to the connection in chunks of `chunkBytes`, waiting while the client is behind.
    private struct ConnectionSink: SnapshotSink {
        let writer: ConnectionWriter
        let closed: Lock<Bool>
        var buffer: [UInt8] = []
        var sent = 0

        init(writer: ConnectionWriter, closed: Lock<Bool>) {
            self.writer = writer
            self.closed = closed
            self.buffer.reserveCapacity(BackupStream.chunkBytes)
        }

        mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
            self.buffer.append(contentsOf: bytes)
            if self.buffer.count >= BackupStream.chunkBytes { try self.flush() }
        }

        /// Sends what is gathered once the client has taken enough of what was sent before; gives up on a client
        /// that takes nothing for `stallLimit`.
        mutating func flush() throws {
            guard !self.buffer.isEmpty else { return }
            var held = self.writer.heldBytes
            var lastProgress = ContinuousClock.now
            while held > BackupStream.queuedBytesLimit {
                if self.closed.withLock({ $0 }) || self.writer.isClosed { break }
                usleep(1000)
                let now = self.writer.heldBytes
                if now < held {
                    lastProgress = ContinuousClock.now
                } else if ContinuousClock.now - lastProgress > BackupStream.stallLimit {
                    throw BackupClientGoneError(sent: self.sent)
                }
                held = now
            }
            guard !self.closed.withLock({ $0 }), self.writer.write(self.buffer) else {
                throw BackupClientGoneError(sent: self.sent)
            }
            self.sent += self.buffer.count
            self.buffer.removeAll(keepingCapacity: true)
        }
    }
}

/// The client closed the connection (or fell too far behind) before the backup was sent whole.
struct BackupClientGoneError: Error, CustomStringConvertible {
    let sent: Int

    var description: String { "the client went away after \(self.sent) bytes of the backup" }
}
