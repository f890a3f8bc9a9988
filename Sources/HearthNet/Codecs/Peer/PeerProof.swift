import HearthCore

/// The second frame of each side's handshake: an HMAC-SHA256, under the cluster secret, of both hellos (so of both
/// nonces, the cluster name, both node ids, the purpose and both generations) and of which side sends it.
///
/// A proof is worthless anywhere else: every connection has two fresh nonces, the side byte stops a proof from
/// being reflected back to its sender, and the node ids stop one member's proof from passing for another's.
///
/// Payload: the magic `HRPF`, then the 32-byte code.
package struct PeerProof: Sendable, Hashable {
    /// The first bytes of every proof's payload.
    package static let magic: [UInt8] = Array("HRPF".utf8)
    /// What every proof's message starts with, so a code made here means nothing in another protocol.
    private static let context: [UInt8] = Array("hearth peer proof v2".utf8)
    /// The size of an HMAC-SHA256 code.
    package static let codeSize = 32

    /// The HMAC-SHA256 code.
    package let code: [UInt8]

    /// A proof carrying `code` as received.
    package init(code: [UInt8]) {
        self.code = code
    }

    /// The proof that the side `sender` of a connection knows `key`, over the hellos of the side that dialed and
    /// the side that accepted.
    package init(key: [UInt8], sender: PeerHandshake.Role, dialer: PeerHello, acceptor: PeerHello) {
        var message = Self.context
        message.append(sender.rawValue)
        BinaryWriter.appendBytes(dialer.payload, to: &message)
        BinaryWriter.appendBytes(acceptor.payload, to: &message)
        self.code = HMACSHA256.authenticationCode(for: message, key: key)
    }

    /// The proof as a whole frame, ready to send.
    package var frame: PeerFrame { PeerFrame(kind: PeerFrame.handshakeKind, payload: Self.magic + self.code) }

    /// Reads a proof frame.
    ///
    /// - Throws: `.unexpectedFrame` for any other frame (a peer may send nothing else before its proof).
    package init(decoding frame: PeerFrame) throws(PeerFrameError) {
        guard frame.kind == PeerFrame.handshakeKind, frame.payload.starts(with: Self.magic),
            frame.payload.count == Self.magic.count + Self.codeSize
        else {
            throw PeerFrameError(
                .unexpectedFrame,
                "The peer sent a frame of kind \(frame.kind) (\(frame.payload.count) bytes) where its proof of the "
                    + "cluster secret belongs; nothing is read from a peer before that proof."
            )
        }
        self.code = Array(frame.payload.dropFirst(Self.magic.count))
    }

    /// Whether this proof, received from side `sender`, was made with one of `secret`'s keys; compared in constant
    /// time.
    package func isValid(
        for secret: PeerClusterSecret, sender: PeerHandshake.Role, dialer: PeerHello, acceptor: PeerHello
    ) -> Bool {
        var matched = false
        for key in secret.keys {
            let expected = PeerProof(key: key, sender: sender, dialer: dialer, acceptor: acceptor)
            matched = HMACSHA256.constantTimeEqual(expected.code, self.code) || matched
        }
        return matched
    }
}
