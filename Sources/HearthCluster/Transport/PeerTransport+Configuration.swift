package import HearthNet

extension PeerTransport {
    /// Who this node is and the transport's limits.
    package struct Configuration: Sendable {
        /// This node's id, sent in its hello.
        package var node: NodeID
        /// The cluster's name; peers with another name are refused.
        package var cluster: String
        /// The secret every member proves it holds in each handshake; peers that cannot are refused.
        package var secret: PeerClusterSecret
        /// This node's release and the oldest it accepts, sent in its hello; peers the rule does not allow beside
        /// it are refused (`ReleaseRule`).
        package var release = PeerReleaseTag.current
        /// This node's incarnation (its SWIM generation), sent in its hello and covered by its proofs.
        package var generation: UInt64 = 0
        /// Where other nodes dial this one (the node's `peerPort`; port 0 picks a free one).
        package var listenAddress: SocketAddress
        /// The largest payload sent or accepted; a peer sending more is disconnected.
        package var maximumPayloadSize = PeerFrame.defaultMaximumPayloadSize
        /// The most bytes of frames waiting for one peer; beyond it new frames are dropped and counted.
        package var outboundQueueLimit = 32 * 1024 * 1024
        /// The most bytes a connection's socket queue may hold before further frames wait in the link's queue.
        package var socketHighWater = 1024 * 1024
        /// How long a peer has to send its hello and its proof.
        package var handshakeTimeout: Duration = .seconds(5)
        /// How long one dial may take.
        package var connectTimeout: Duration = .seconds(2)
        /// Delays between dials to a peer that is down or refuses the handshake; the longest is also the shortest
        /// time between two logged lines of one repeated refusal.
        package var backoff = Backoff(initial: .milliseconds(50), maximum: .seconds(2), multiplier: 2, jitter: 0.5)
        /// Accepted connections beyond this many are closed at once.
        package var maximumConnections = 1024

        package init(node: NodeID, cluster: String, secret: PeerClusterSecret, listenAddress: SocketAddress) {
            self.node = node
            self.cluster = cluster
            self.secret = secret
            self.listenAddress = listenAddress
        }
    }
}
