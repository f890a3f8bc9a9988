import CHearthSystem
import Glibc
import HearthSystem
import Synchronization

/// Dialing out: a non-blocking `connect` registered with epoll like any connection, completed by its first writable
/// edge and `SO_ERROR`, bounded by a connect timeout in the timer heap.
///
/// A dialed connection is registered with the same edge-triggered events as an accepted one, so once connected it
/// is read, written, paused and closed by exactly the same code. Until then it is in the `connecting` state: it has
/// no handler calls, is never read or flushed, and its one timer is the connect timeout.
extension Reactor {
    /// Starts connecting to `address`; `handler` hears `connectionOpened` when the connection is up, or
    /// `connectFailed` (possibly before this returns) when it cannot be made within `timeout` nanoseconds.
    ///
    /// Returns the connection while it is being set up, `nil` when the dial failed at once. A draining reactor makes
    /// no new connections.
    @discardableResult
    func connect(to address: SocketAddress, timeout: UInt64, handler: any ConnectionHandler) -> Connection? {
        guard !self.isDraining else {
            handler.connectFailed(
                IOError(.cancelled, "The dial to \(address) was not started: the reactor is shutting down.")
            )
            return nil
        }
        let descriptor: Int32
        do {
            descriptor = try Socket.startConnect(to: address)
        } catch {
            handler.connectFailed(error)
            return nil
        }
        let id = self.makeID()
        let flags = EPOLLIN.rawValue | EPOLLOUT.rawValue | EPOLLRDHUP.rawValue | EPOLLET.rawValue
        do {
            try self.register(descriptor, token: id, events: flags)
        } catch {
            Syscall.close(descriptor)
            handler.connectFailed(error)
            return nil
        }
        let connection = Connection(
            id: id,
            descriptor: descriptor,
            remoteAddress: address.description,
            writer: ConnectionWriter(id: id, limit: self.settings.outboundBufferLimit, inbox: self.inbox),
            reactor: self,
            handler: handler,
            state: .connecting
        )
        self.connections[id] = connection
        self.counters.openConnections.add(1, ordering: .relaxed)
        self.setDeadline(connection, .connect(timeout: timeout), after: timeout)
        return connection
    }

    /// Called for any event on a connecting socket: `SO_ERROR` tells whether the connect failed; a writable socket
    /// without an error has connected. Bytes that arrived with the same event are read at once (edge-triggered).
    func completeConnect(_ connection: Connection, flags: UInt32) {
        let error = Socket.pendingError(connection.descriptor)
        guard error == 0 else {
            self.close(connection, error: Socket.connectError(to: connection.remoteAddress, error))
            return
        }
        guard flags & EPOLLOUT.rawValue != 0 else {
            if flags & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0 {
                self.close(connection, error: Socket.connectError(to: connection.remoteAddress, ECONNRESET))
            }
            return
        }
        connection.state = .active
        connection.deadline = nil
        connection.timerPurpose = .handler
        connection.handler?.connectionOpened(connection)
        guard !connection.isClosed else { return }
        self.flush(connection)
        if !connection.isClosed { self.readAvailable(connection) }
    }
}
