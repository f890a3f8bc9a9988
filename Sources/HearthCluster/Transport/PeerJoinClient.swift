package import HearthNet

/// The joining side of the join exchange (`JoinRequest`, `JoinReply`): one blocking connection to a member's peer
/// port, the handshake (`PeerHandshake`, as a node asking to join: both sides prove the cluster secret), then the
/// request and the member's answer. Blocks the calling thread: a joining node makes this exchange before it runs
/// anything else.
package enum PeerJoinClient {
    /// Asks the member at `address` to let `request.node` join, within `timeout`, proving `secret`, with this node's
    /// `release` in its hello (a member of a release the rule does not allow beside it refuses it, naming both).
    /// - Throws: `PeerJoinError` when the member cannot be reached, refuses the handshake (another secret), or its
    ///   answer cannot be read.
    package static func ask(
        _ address: SocketAddress, _ request: JoinRequest, secret: PeerClusterSecret,
        release: PeerReleaseTag = .current, timeout: Duration
    ) throws(PeerJoinError) -> JoinReply {
        do {
            let connection = try BlockingConnection(to: address, before: ContinuousClock.now + timeout)
            defer { connection.close() }
            var handshake = PeerHandshake(
                role: .dialer,
                local: PeerHello(
                    purpose: .join, cluster: "", node: request.node.id.name, nonce: PeerHello.freshNonce(),
                    release: release),
                secret: secret)
            try connection.send(handshake.opening.encoded)
            var decoder = PeerFrameDecoder(maximumPayloadSize: PeerFrame.handshakeMaximumPayloadSize)
            while true {
                while let frame = try decoder.next() {
                    guard handshake.established != nil else {
                        for output in try handshake.receive(frame) {
                            switch output {
                            case .send(let reply): try connection.send(reply.encoded)
                            case .established:
                                decoder.maximumPayloadSize = PeerFrame.defaultMaximumPayloadSize
                                let join = PeerFrame(kind: PeerFrameKind.join.rawValue, payload: request.encoded())
                                try connection.send(join.encoded)
                            }
                        }
                        continue
                    }
                    guard frame.kind == PeerFrameKind.join.rawValue else { continue }
                    return try JoinReply(decoding: frame.payload)
                }
                let bytes = try connection.receive()
                guard !bytes.isEmpty else {
                    let stage = handshake.established == nil ? "during the handshake" : "without answering"
                    throw PeerJoinError(
                        "\(address) closed the connection \(stage); it may not take members yet, may hold another "
                            + "cluster secret (check --cluster-secret-file), or is not a Hearth peer port.")
                }
                decoder.append(bytes)
            }
        } catch let error as PeerJoinError {
            throw error
        } catch let error as HTTPClientError {
            throw PeerJoinError(error.message)
        } catch let error as PeerFrameError {
            throw PeerJoinError("\(address) refused or failed the peer handshake: \(error.message)")
        } catch {
            throw PeerJoinError("\(address) sent an answer that cannot be read: \(error)")
        }
    }
}

/// The join exchange with a member failed; the message says what happened.
package struct PeerJoinError: Error, Sendable, CustomStringConvertible {
    package let message: String

    package init(_ message: String) {
        self.message = message
    }

    package var description: String { self.message }
}
