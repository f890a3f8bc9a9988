/// The opening of a peer connection as a pure state machine: each side sends its `PeerHello` with a fresh nonce,
/// then proves the cluster secret with a `PeerProof` over both hellos; nothing else is read before the peer's proof
/// is verified.
///
/// The side that dialed proves first, as soon as it has the other hello; the side that accepted proves only after it
/// has verified the dialer's proof, so a stranger who connects gets nothing that depends on the secret. Feed each
/// frame received to `receive(_:)` until it answers `.established`; send the frames it asks for, in order. After a
/// refusal it keeps throwing the same error; the connection must be closed.
package struct PeerHandshake: Sendable {
    /// Which side of the connection this node is; part of every proof, so a proof cannot be sent back to its maker.
    package enum Role: UInt8, Sendable, Hashable {
        /// The side that opened the connection (a member dialing a peer, or a node asking to join).
        case dialer = 1
        /// The side that accepted it on its peer port.
        case acceptor = 2

        /// The other side.
        package var peer: Role { self == .dialer ? .acceptor : .dialer }
    }

    /// What the connection must do after a frame.
    package enum Output: Sendable, Hashable {
        /// Send this frame to the peer.
        case send(PeerFrame)
        /// The peer proved the secret: this is its hello, and every later frame is the connection's.
        case established(PeerHello)
    }

    /// Where the handshake stands: the peer's hello, then its proof, are awaited in turn.
    private enum State: Sendable {
        case awaitingHello
        case awaitingProof(PeerHello)
        case established(PeerHello)
        case refused(PeerFrameError)
    }

    /// Which side this node is.
    package let role: Role
    /// This side's hello, sent first (`opening`).
    package let local: PeerHello
    private let secret: PeerClusterSecret
    /// The node a dialer meant to reach; another answering is refused before any proof is sent.
    private let expectedPeer: String?
    private var state = State.awaitingHello

    /// - Parameters:
    ///   - local: this node's hello, with a fresh nonce (`PeerHello.freshNonce()`).
    ///   - expectedPeer: for a dialer, the node it dialed (`nil` when joining through any member).
    package init(role: Role, local: PeerHello, secret: PeerClusterSecret, expectedPeer: String? = nil) {
        self.role = role
        self.local = local
        self.secret = secret
        self.expectedPeer = expectedPeer
    }

    /// The frame to send as soon as the connection is open.
    package var opening: PeerFrame { self.local.frame }

    /// The peer's hello once its proof was verified.
    package var established: PeerHello? {
        guard case .established(let peer) = self.state else { return nil }
        return peer
    }

    /// Takes the next frame from the peer.
    ///
    /// - Throws: `PeerFrameError`: `.unexpectedFrame` for a frame out of turn, `.malformedHello`,
    ///   `.versionMismatch`, `.clusterMismatch`, `.unexpectedNode`, `.releaseIncompatible` for a hello that does not
    ///   fit, and `.authenticationFailed` for a proof not made with the cluster secret over this connection's hellos.
    package mutating func receive(_ frame: PeerFrame) throws(PeerFrameError) -> [Output] {
        do {
            return try self.step(frame)
        } catch {
            self.state = .refused(error)
            throw error
        }
    }

    private mutating func step(_ frame: PeerFrame) throws(PeerFrameError) -> [Output] {
        switch self.state {
        case .awaitingHello:
            let peer = try PeerHello(decoding: frame)
            try self.check(peer)
            self.state = .awaitingProof(peer)
            guard self.role == .dialer else { return [] }
            return [.send(self.proof(with: peer).frame)]
        case .awaitingProof(let peer):
            let proof = try PeerProof(decoding: frame)
            let (dialer, acceptor) = self.role == .dialer ? (self.local, peer) : (peer, self.local)
            guard proof.isValid(for: self.secret, sender: self.role.peer, dialer: dialer, acceptor: acceptor) else {
                throw PeerFrameError(
                    .authenticationFailed,
                    "Node \(peer.node) did not prove it holds this cluster's secret; give every node the same "
                        + "secretFile (or --cluster-secret-file)."
                )
            }
            self.state = .established(peer)
            guard self.role == .acceptor else { return [.established(peer)] }
            return [.send(self.proof(with: peer).frame), .established(peer)]
        case .established(let peer):
            throw PeerFrameError(
                .unexpectedFrame, "Node \(peer.node) sent a handshake frame on an established connection.")
        case .refused(let error):
            throw error
        }
    }

    /// Whether the peer's hello fits this connection: its own nonce (not ours sent back), its cluster, for a dialer
    /// the node dialed, and a release this node may run beside (`ReleaseRule`).
    private func check(_ peer: PeerHello) throws(PeerFrameError) {
        guard peer.nonce != self.local.nonce else {
            throw PeerFrameError(.unexpectedNode, "The peer sent this node's own hello back; it is not a Hearth node.")
        }
        switch self.role {
        case .acceptor:
            if peer.purpose == .link { try peer.check(cluster: self.local.cluster) }
        case .dialer:
            guard peer.purpose == .link else {
                throw PeerFrameError(.unexpectedNode, "The node dialed answered as a node asking to join.")
            }
            if self.local.purpose == .link { try peer.check(cluster: self.local.cluster) }
            if let expected = self.expectedPeer, peer.node != expected {
                throw PeerFrameError(
                    .unexpectedNode,
                    "The node at this address says it is \(peer.node), but \(expected) was dialed; check the peer "
                        + "addresses in the cluster configuration."
                )
            }
        }
        try peer.check(release: self.local.release)
    }

    /// This side's proof over this connection's hellos, made with the secret's first key.
    private func proof(with peer: PeerHello) -> PeerProof {
        let (dialer, acceptor) = self.role == .dialer ? (self.local, peer) : (peer, self.local)
        return PeerProof(key: self.secret.keys[0], sender: self.role, dialer: dialer, acceptor: acceptor)
    }
}
