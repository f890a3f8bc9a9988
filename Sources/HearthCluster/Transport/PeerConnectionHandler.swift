import HearthNet
import HearthSystem
import Synchronization

/// The peer protocol on one TCP connection, dialed or accepted: both sides open with a hello and prove the cluster
/// secret (`PeerHandshake`) before any other frame is read, with frames limited to
/// `PeerFrame.handshakeMaximumPayloadSize` until then; after that, every frame goes to the transport's frame
/// handler, in order, and the link's queued frames flow out. Only a verified connection is attached to a link, so a
/// stranger naming a member can never replace that member's connection.
///
/// Confined to the reactor thread. A handshake that fails or does not finish within the configured timeout closes
/// the connection with a logged reason (repeats of one refusal are left out, and counted in the next line logged).
/// A dialed connection confirms its dial once verified, so the dialer's back-off starts over only then: a peer that
/// refuses every handshake is redialled less and less often.
final class PeerConnectionHandler: ConnectionHandler {
    /// Which side of the connection this node is.
    enum Role {
        /// This node dialed `peer` (its id is the lower of the two).
        case dialed(NodeID)
        /// The peer dialed this node; who it is comes from its hello.
        case accepted
    }

    private enum State {
        case handshaking(PeerHandshake)
        case established(PeerLink)
        /// A node of this release that proved the secret asked to join; its request is the next frame.
        case awaitingJoin(HearthRelease)
        /// A node asked to join; the answer is being worked out.
        case answeringJoin
        case failed
    }

    /// How long a node asking to join waits for the answer (the member list must commit its change).
    private static let joinTimeout: Duration = .seconds(30)

    private let core: PeerTransportCore
    private let role: Role
    private var decoder = PeerFrameDecoder(maximumPayloadSize: PeerFrame.handshakeMaximumPayloadSize)
    private var state: State

    /// How long the link's frames wait for the socket to drain before the handler looks again.
    private static let drainPollNanoseconds: UInt64 = 2_000_000

    init(core: PeerTransportCore, role: Role) {
        self.core = core
        self.role = role
        let configuration = core.configuration
        let hello = PeerHello(
            cluster: configuration.cluster, node: configuration.node.name, generation: configuration.generation,
            nonce: PeerHello.freshNonce(), release: configuration.release)
        switch role {
        case .dialed(let peer):
            self.state = .handshaking(
                PeerHandshake(role: .dialer, local: hello, secret: configuration.secret, expectedPeer: peer.name))
        case .accepted:
            self.state = .handshaking(PeerHandshake(role: .acceptor, local: hello, secret: configuration.secret))
        }
    }

    func connectionOpened(_ connection: Connection) {
        guard case .handshaking(let handshake) = self.state else { return }
        connection.enqueue(handshake.opening.encoded)
        connection.flush()
        connection.setTimer(after: self.core.configuration.handshakeTimeout.reactorNanoseconds)
    }

    func received(_ bytes: UnsafeRawBufferPointer, on connection: Connection) {
        self.decoder.append(bytes)
        do {
            while !connection.isClosed, let frame = try self.decoder.next() {
                try self.handle(frame, on: connection)
            }
        } catch {
            self.fail(connection, error)
        }
    }

    private func handle(_ frame: PeerFrame, on connection: Connection) throws(PeerFrameError) {
        switch self.state {
        case .handshaking(var handshake):
            let outputs = try handshake.receive(frame)
            self.state = .handshaking(handshake)
            for output in outputs {
                switch output {
                case .send(let reply):
                    connection.enqueue(reply.encoded)
                    connection.flush()
                case .established(let hello):
                    try self.establish(hello, on: connection)
                }
            }
        case .established(let link):
            guard frame.kind != PeerFrame.handshakeKind else {
                throw PeerFrameError(.unexpectedFrame, "Node \(link.peer) sent a second hello on one connection.")
            }
            link.received(bytes: PeerFrame.headerSize + frame.payload.count)
            self.core.deliver(frame.kind, frame.payload, from: link.peer)
        case .awaitingJoin(let release):
            guard frame.kind == PeerFrameKind.join.rawValue else {
                throw PeerFrameError(
                    .unexpectedFrame, "A node asking to join sent a frame of kind \(frame.kind) instead of its request."
                )
            }
            try self.answerJoin(frame.payload, from: release, on: connection)
        case .answeringJoin, .failed:
            break
        }
    }

    /// The peer proved the secret: a member's connection is attached to its link (replacing an older one), and
    /// frames up to the full payload limit are read from now on; a node asking to join may send its request.
    private func establish(_ hello: PeerHello, on connection: Connection) throws(PeerFrameError) {
        guard hello.purpose == .link else {
            guard self.core.joinHandler.withLock({ $0 }) != nil else {
                throw PeerFrameError(
                    .unexpectedFrame, "A node asked to join before this node could take members; ask again shortly.")
            }
            self.state = .awaitingJoin(hello.release.release)
            return
        }
        let link = try self.expectedLink(for: NodeID(hello.node))
        self.state = .established(link)
        self.decoder.maximumPayloadSize = self.core.configuration.maximumPayloadSize
        connection.cancelTimer()
        connection.confirmDial()
        if let replaced = link.attach(connection.id, release: hello.release.release) {
            self.core.close(connection: replaced, reason: "a newer connection from \(link.peer) replaced it")
        }
        self.core.log.info(
            "peer.connected",
            [
                "peer": link.peer.name, "address": connection.remoteAddress, "connection": "\(connection.id)",
                "release": "\(hello.release.release)",
            ]
        )
        self.flushPending(link, on: connection)
    }

    /// Hands a join request from a node of `release` to the transport's join handler; its answer comes back as a
    /// `PeerJoinReplyMessage`.
    private func answerJoin(_ request: [UInt8], from release: HearthRelease, on connection: Connection)
        throws(PeerFrameError)
    {
        guard let handler = self.core.joinHandler.withLock({ $0 }) else {
            throw PeerFrameError(
                .unexpectedFrame, "A node asked to join before this node could take members; ask again shortly.")
        }
        self.state = .answeringJoin
        connection.setTimer(after: Self.joinTimeout.reactorNanoseconds)
        let core = self.core
        let id = connection.id
        handler.call(request, release) { reply in
            core.loop.withLock { $0 }?.send(PeerJoinReplyMessage(reply: reply), to: id)
        }
    }

    /// The link for the node that proved itself, if that node may use this connection: a dialed connection must
    /// reach the node dialed; an accepted one must come from a known peer whose id is lower than this node's.
    private func expectedLink(for node: NodeID) throws(PeerFrameError) -> PeerLink {
        let local = self.core.configuration.node
        switch self.role {
        case .dialed(let expected):
            guard node == expected, let link = self.core.link(for: node) else {
                throw PeerFrameError(
                    .unexpectedNode,
                    "The node at this address says it is \(node), but \(expected) was dialed; check the peer "
                        + "addresses in the cluster configuration."
                )
            }
            return link
        case .accepted:
            guard node < local, let link = self.core.link(for: node) else {
                throw PeerFrameError(
                    .unexpectedNode,
                    "Node \(node) connected, but it is not a peer that dials \(local) (unknown, or its id is not "
                        + "lower); check that both nodes use the same cluster configuration."
                )
            }
            return link
        }
    }

    func handle(_ message: any ConnectionMessage, on connection: Connection) {
        switch message {
        case let flush as PeerFlushMessage:
            guard case .established(let link) = self.state, link === flush.link else {
                flush.discard()
                return
            }
            self.flushPending(link, on: connection)
        case let answer as PeerJoinReplyMessage:
            guard case .answeringJoin = self.state else { return }
            self.state = .failed
            connection.enqueue(PeerFrame(kind: PeerFrameKind.join.rawValue, payload: answer.reply).encoded)
            connection.closeAfterFlush()
        case let close as PeerCloseMessage:
            self.core.log.info("peer.connection_closed", ["reason": close.reason, "connection": "\(connection.id)"])
            connection.close()
        default:
            message.discard()
        }
    }

    /// Moves everything the link has queued into the socket's queue as one chunk, unless the socket is still
    /// behind: then the frames stay in the bounded link queue and the handler looks again shortly.
    private func flushPending(_ link: PeerLink, on connection: Connection) {
        guard connection.queuedOutboundBytes <= self.core.configuration.socketHighWater else {
            link.markFlushScheduled()
            connection.setTimer(after: Self.drainPollNanoseconds)
            return
        }
        let bytes = link.takePending()
        guard !bytes.isEmpty else { return }
        connection.enqueue(bytes)
        connection.flush()
    }

    func timerFired(_ connection: Connection) {
        switch self.state {
        case .handshaking, .awaitingJoin:
            let seconds = self.core.configuration.handshakeTimeout
            self.fail(
                connection,
                PeerFrameError(
                    .malformedHello,
                    "The peer at \(connection.remoteAddress) did not finish its hello and proof within \(seconds); it "
                        + "is not a Hearth node of this cluster, or is overloaded."
                )
            )
        case .established(let link):
            self.flushPending(link, on: connection)
        case .answeringJoin:
            self.fail(
                connection,
                PeerFrameError(
                    .malformedHello,
                    "A join request found no answer within \(Self.joinTimeout); the member list may have no leader."))
        case .failed:
            break
        }
    }

    private func fail(_ connection: Connection, _ error: PeerFrameError) {
        switch self.state {
        case .established(let link):
            self.core.detach(connection.id, from: link)
        case .handshaking:
            self.core.refusedHandshakes.withLock { $0[error.code.description, default: 0] += 1 }
            if case .dialed(let peer) = self.role { self.core.link(for: peer)?.handshakeFailed() }
        case .awaitingJoin, .answeringJoin, .failed:
            break
        }
        self.state = .failed
        if let omitted = self.core.admitRefusalLog("\(self.refusedParty(connection)) \(error.code)") {
            self.core.log.warning(
                "peer.refused",
                [
                    "address": connection.remoteAddress, "code": "\(error.code)", "reason": error.message,
                    "omitted": "\(omitted)",
                ]
            )
        }
        connection.close()
    }

    /// Who a refusal on `connection` concerns, for leaving its repeats out of the log: the peer dialed, or the host
    /// an accepted connection came from (its port changes with every connection).
    private func refusedParty(_ connection: Connection) -> String {
        switch self.role {
        case .dialed(let peer): peer.name
        case .accepted:
            connection.remoteAddress.lastIndex(of: ":").map { String(connection.remoteAddress[..<$0]) }
                ?? connection.remoteAddress
        }
    }

    func connectionClosed(_ connection: Connection, error: IOError?) {
        if case .handshaking = self.state, case .dialed(let peer) = self.role {
            // The node dialed closed before proving itself: it refused this node's proof, or is not a member.
            self.core.link(for: peer)?.handshakeFailed()
            if let omitted = self.core.admitRefusalLog("\(peer) closed") {
                self.core.log.warning(
                    "peer.refused",
                    [
                        "address": connection.remoteAddress,
                        "reason": "\(peer) closed the connection during the handshake", "omitted": "\(omitted)",
                    ]
                )
            }
        }
        guard case .established(let link) = self.state else { return }
        self.core.detach(connection.id, from: link)
        self.core.log.info(
            "peer.disconnected",
            ["peer": link.peer.name, "connection": "\(connection.id)", "error": error?.message ?? "none"]
        )
    }
}
