package import HearthNet

/// The joining side of the join exchange (`JoinRequest`, `JoinReply`): one blocking connection to a member's peer
/// port, the request as its first frame, and the member's answer — read past the hello every member sends first.
/// Blocks the calling thread: a joining node makes this exchange before it runs anything else.
package enum PeerJoinClient {
    /// Asks the member at `address` to let `request.node` join, within `timeout`.
    /// - Throws: `PeerJoinError` when the member cannot be reached or its answer cannot be read.
    package static func ask(
        _ address: SocketAddress, _ request: JoinRequest, timeout: Duration
    ) throws(PeerJoinError) -> JoinReply {
        do {
            let connection = try BlockingConnection(to: address, before: ContinuousClock.now + timeout)
            defer { connection.close() }
            try connection.send(PeerFrame(kind: PeerFrameKind.join.rawValue, payload: request.encoded()).encoded)
            var decoder = PeerFrameDecoder()
            while true {
                while let frame = try decoder.next() {
                    guard frame.kind == PeerFrameKind.join.rawValue else { continue }
                    return try JoinReply(decoding: frame.payload)
                }
                let bytes = try connection.receive()
                guard !bytes.isEmpty else {
                    throw PeerJoinError(
                        "\(address) closed the connection without answering; it may not take members yet, or is not "
                            + "a Hearth peer port.")
                }
                decoder.append(bytes)
            }
        } catch let error as PeerJoinError {
            throw error
        } catch let error as HTTPClientError {
            throw PeerJoinError(error.message)
        } catch let error as PeerFrameError {
            throw PeerJoinError("\(address) answered with something that is not a peer frame: \(error.message)")
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
