/// Wraps the handler of one dial so the `DialerCore` hears when it connects and when it ends; every call is passed
/// on to the inner handler unchanged.
final class DialedConnectionHandler: ConnectionHandler {
    private let inner: any ConnectionHandler
    private let core: DialerCore

    init(inner: any ConnectionHandler, core: DialerCore) {
        self.inner = inner
        self.core = core
    }

    func connectionOpened(_ connection: Connection) {
        self.core.opened(connection)
        self.inner.connectionOpened(connection)
    }

    /// The inner handler confirmed the connection (`Connection.confirmDial()`).
    func confirmed() {
        self.core.confirmed()
    }

    func connectFailed(_ error: IOError) {
        self.inner.connectFailed(error)
        self.core.ended(error: error, wasConnected: false)
    }

    func received(_ bytes: UnsafeRawBufferPointer, on connection: Connection) {
        self.inner.received(bytes, on: connection)
    }

    func peerClosed(_ connection: Connection) {
        self.inner.peerClosed(connection)
    }

    func timerFired(_ connection: Connection) {
        self.inner.timerFired(connection)
    }

    func handle(_ message: any ConnectionMessage, on connection: Connection) {
        self.inner.handle(message, on: connection)
    }

    func reactorDraining(_ connection: Connection) {
        self.inner.reactorDraining(connection)
    }

    func reactorFinishing(_ connection: Connection) {
        self.inner.reactorFinishing(connection)
    }

    func connectionClosed(_ connection: Connection, error: IOError?) {
        self.inner.connectionClosed(connection, error: error)
        self.core.ended(error: error, wasConnected: true)
    }
}
