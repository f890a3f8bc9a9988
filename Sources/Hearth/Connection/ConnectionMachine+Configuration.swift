package import HearthNet
import HearthWire

extension ConnectionMachine {
    /// Where the connection goes and how patient it is. The defaults follow Firebase's clients where they say
    /// something (back-off from 1 s by 1.3 up to 30 s, reset after a connection that lived 30 s, gets give up
    /// after 3 s without a connection) and are tighter where the issue asks for more (a silent connection is
    /// noticed within seconds).
    package struct Configuration: Sendable {
        /// The nodes to try, in turn; at least one.
        package var endpoints: [RealtimeEndpoint]
        /// The database's namespace (`ns`).
        package var namespace: String
        /// The delays between rounds of attempts (one round tries every endpoint once).
        package var backoff = Backoff(initial: .seconds(1), maximum: .seconds(30), multiplier: 1.3, jitter: 0.5)
        /// A connection that lived this long resets the back-off when it ends.
        package var backoffResetAfter: Duration = .seconds(30)
        /// How long an attempt may take from dialling to the server's handshake.
        package var handshakeTimeout: Duration = .seconds(10)
        /// After this long without hearing from the server, send a ping.
        package var pingAfterIdle: Duration = .seconds(10)
        /// A ping unanswered (nothing at all heard) this long means the connection is dead: close and redial.
        package var pongTimeout: Duration = .seconds(5)
        /// How long a `get` made while the connection is being set up waits for it before failing as offline.
        package var getTimeout: Duration = .seconds(3)
        /// The most characters one outbound frame carries (the protocol's 16384).
        package var maximumFrameBytes = WireFrameSplitter.maximumFrameBytes
        /// The largest inbound message accepted, in UTF-8 bytes.
        package var maximumMessageBytes = WireFrameSplitter.maximumMessageBytes

        /// - Precondition: `endpoints` is not empty.
        package init(endpoints: [RealtimeEndpoint], namespace: String) {
            precondition(!endpoints.isEmpty, "ConnectionMachine.Configuration needs at least one endpoint")
            self.endpoints = endpoints
            self.namespace = namespace
        }
    }
}
