/// A bound, listening socket and how the reactor serves what it accepts: one new handler per connection.
///
/// The reactor that is given a listener owns its descriptor from then on and closes it when it drains or stops.
package struct Listener: Sendable {
    let descriptor: Int32
    /// The port the socket is bound to (the real one after binding port 0).
    package let port: Int
    let accept: AcceptFunction
    let makeHandler: @Sendable () -> any ConnectionHandler
    /// What a connection the reactor has no room for is sent before it is closed (an HTTP 503), so that a client
    /// turned away hears why instead of waiting in the backlog; empty to close without a word.
    let refusal: [UInt8]

    /// Binds and listens on `address` (`SO_REUSEADDR`); `makeHandler` runs on the reactor thread for each
    /// accepted connection.
    ///
    /// - Throws: `IOError` when the address is taken or invalid.
    package init(
        address: SocketAddress,
        backlog: Int32 = 1024,
        refusal: [UInt8] = [],
        makeHandler: @escaping @Sendable () -> any ConnectionHandler
    ) throws(IOError) {
        let descriptor = try Socket.makeListener(host: address.host, port: address.port, backlog: backlog)
        do {
            self.port = try Socket.localPort(descriptor)
        } catch {
            Syscall.close(descriptor)
            throw error
        }
        self.descriptor = descriptor
        self.accept = { listener throws(IOError) in try Socket.accept(listener) }
        self.makeHandler = makeHandler
        self.refusal = refusal
    }

    /// A listener over a socket already bound and listening (the HTTP server binds before it runs).
    init(
        descriptor: Int32,
        port: Int,
        accept: @escaping AcceptFunction,
        refusal: [UInt8] = [],
        makeHandler: @escaping @Sendable () -> any ConnectionHandler
    ) {
        self.descriptor = descriptor
        self.port = port
        self.accept = accept
        self.makeHandler = makeHandler
        self.refusal = refusal
    }
}
