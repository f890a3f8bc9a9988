/// How a protocol wraps each `ConnectionWriter.write` on one connection, and what it sends last when the writer
/// closes: HTTP's chunked transfer coding, for instance. It lets the reactor's writer stay ignorant of protocols.
///
/// Called under the writer's lock, from any thread: it must be quick and must not call back into the writer.
package protocol OutboundFraming: Sendable {
    /// The buffers to queue for one write, in order; an empty write is never framed. Return `bytes` itself as one
    /// of them (not a copy): a write shared by many connections then stays one buffer in memory.
    func frame(_ bytes: [UInt8]) -> [[UInt8]]
    /// Queued after everything else when the writer closes (empty for none).
    var trailer: [UInt8] { get }
}
