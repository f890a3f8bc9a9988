/// The protocol spoken on one connection, as the reactor drives it: the seam between the protocol-free event loop
/// and HTTP, WebSocket, or a peer transport.
///
/// The reactor owns the socket; the handler owns the meaning of the bytes. It acts through the `Connection` it is
/// handed: queue bytes and flush, pause reading while it cannot take more (back-pressure), set one timer, close.
/// Other threads reach the connection only through its thread-safe `ConnectionWriter`, or by sending the handler a
/// `ConnectionMessage` (see `EventLoop.send(_:to:)`).
///
/// Rules for implementers:
/// - Every call comes on the reactor thread, one at a time, and must not block: hand slow work to a task or actor.
/// - An accepted connection, or a dial that completed, hears `connectionOpened` first and `connectionClosed`
///   exactly once, last. A dial that never connected hears only `connectFailed`, exactly once.
/// - `received` is not called while reading is paused, nor once a close has begun; its buffer is valid only during
///   the call.
/// - A handler may keep its `Connection` between calls, but must not use it after `connectionClosed`.
package protocol ConnectionHandler: AnyObject {
    /// The connection is established (accepted, or a dial completed); the handler may write at once.
    func connectionOpened(_ connection: Connection)

    /// A dial failed before it connected: refused, unreachable, timed out, or abandoned at shutdown.
    func connectFailed(_ error: IOError)

    /// Inbound bytes, in order.
    func received(_ bytes: UnsafeRawBufferPointer, on connection: Connection)

    /// The peer finished sending (FIN); `connection.isPeerClosed` is now true. Unless the handler still has
    /// something to send, it should close.
    func peerClosed(_ connection: Connection)

    /// The deadline set with `Connection.setTimer(after:)` passed.
    func timerFired(_ connection: Connection)

    /// A message another thread sent to this connection.
    func handle(_ message: any ConnectionMessage, on connection: Connection)

    /// Graceful shutdown, step 1: the reactor stopped accepting. Say goodbye (queue a last frame) and close, or
    /// finish the work in flight first.
    func reactorDraining(_ connection: Connection)

    /// Graceful shutdown, step 2: every producer of messages has finished; nothing more will arrive. The reactor
    /// closes what is left once flushed, or at the shutdown deadline.
    func reactorFinishing(_ connection: Connection)

    /// The node evicts the connection to protect its memory (`Reactor.evict`): its unsent messages were dropped and
    /// further writes are refused; queue the protocol's goodbye with `ConnectionWriter.writeFarewell`, or close at
    /// once. Unless the handler closed it, the connection closes once the goodbye is flushed.
    func evicted(_ connection: Connection, reason: ConnectionEviction)

    /// The outbound queue fell to the mark given to `Connection.notifyWhenOutputDrains(to:)`: a handler that
    /// stopped taking requests while its peer was not reading its answers takes them again.
    func outputDrained(_ connection: Connection)

    /// Since when (`MonotonicClock`) the connection has been idle with nothing in progress, such as a keep-alive
    /// connection between requests; `nil` while it is busy. When the reactor has no room for a new connection it
    /// closes the longest-idle one first, as nginx reuses idle keep-alive connections.
    var idleSince: UInt64? { get }

    /// The connection is gone, with the reason when it failed (a reset, an outbound overflow, a read or write
    /// error); `nil` after an orderly close by either side.
    func connectionClosed(_ connection: Connection, error: IOError?)
}

extension ConnectionHandler {
    package func connectionOpened(_ connection: Connection) {}

    package func connectFailed(_ error: IOError) {}

    /// By default a half-closed peer ends the connection once what is queued has been sent.
    package func peerClosed(_ connection: Connection) {
        connection.closeAfterFlush()
    }

    package func timerFired(_ connection: Connection) {}

    /// By default messages are not understood, and are discarded so their promises are kept.
    package func handle(_ message: any ConnectionMessage, on connection: Connection) {
        message.discard()
    }

    /// By default a connection flushes what is queued and closes when the reactor drains.
    package func reactorDraining(_ connection: Connection) {
        connection.closeAfterFlush()
    }

    package func reactorFinishing(_ connection: Connection) {}

    package func outputDrained(_ connection: Connection) {}

    /// By default an evicted connection has no goodbye to say: it closes once what it began to send is flushed.
    package func evicted(_ connection: Connection, reason: ConnectionEviction) {}

    /// By default a connection is never idle enough to be closed for room.
    package var idleSince: UInt64? { nil }
}

/// Something another thread sends one connection's handler through the reactor, such as an HTTP reply.
package protocol ConnectionMessage: Sendable {
    /// The message will never be handled (its connection or the reactor is gone): keep whatever promise it carries,
    /// such as telling a stream session that its connection closed. Called on whichever thread found out.
    func discard()
}
