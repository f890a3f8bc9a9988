import HearthCore
import HearthSystem

/// The first frame each side sends on a peer connection: who it is, what it speaks, why it connects, and a fresh
/// random challenge for the other side, so that a node of another cluster, one speaking another protocol version,
/// or one that does not know the cluster secret, is never talked to (`PeerHandshake`).
///
/// Payload: the magic `HRTH`, `u16` protocol version, `u8` purpose, the cluster name and the sender's node id (each
/// `u16 length` + UTF-8, `BinaryWriter.appendString`), `u64` generation, and the nonce field (`u32 length` + bytes):
/// the nonce, then, from release 0.2.0 on, the sender's `PeerReleaseTag`, which release 0.1.0 reads as part of the
/// nonce. The protocol version stays 2 so that 0.1.0, which requires exactly 2 and no byte after the nonce field,
/// runs beside 0.2.0 during a rolling upgrade; which releases may meet is decided by the tags (`ReleaseRule`).
package struct PeerHello: Sendable, Hashable {
    /// The first bytes of every hello's payload.
    package static let magic: [UInt8] = Array("HRTH".utf8)
    /// The peer protocol version this build speaks; bump it on any incompatible change of a frame's meaning.
    /// Version 2: hellos carry a nonce and every connection proves the cluster secret (`PeerProof`).
    package static let currentVersion: UInt16 = 2
    /// The size of the nonces this build sends.
    package static let nonceSize = 32
    /// The fewest bytes a received nonce may have: fewer could repeat.
    package static let minimumNonceSize = 16
    /// The most bytes a received nonce may have.
    package static let maximumNonceSize = 64

    /// Why a node opens a connection.
    package enum Purpose: UInt8, Sendable, Hashable {
        /// A member's link to another member, carrying Raft, membership and forwarded calls.
        case link = 1
        /// A node not yet a member asking to join (one `PeerFrameKind.join` request and its answer).
        case join = 2
    }

    /// The peer protocol version the sender speaks.
    package let version: UInt16
    /// Why the sender connects (a dialer's); an acceptor's is always `.link`.
    package let purpose: Purpose
    /// The sender's cluster; empty in a joining node's hello (it learns the name from the member's).
    package let cluster: String
    /// The sender's node id.
    package let node: String
    /// The sender's incarnation (its SWIM generation: the time it started, in ms); 0 for a joining node.
    package let generation: UInt64
    /// Fresh random bytes the other side's proof must cover, so no proof can be replayed.
    package let nonce: [UInt8]
    /// The sender's release and the oldest it accepts, as its hello carried them; nil for a hello of release 0.1.0.
    package let tag: PeerReleaseTag?

    /// The sender's release and the oldest it accepts (0.1.0's for a hello without a tag).
    package var release: PeerReleaseTag { self.tag ?? .untagged }

    package init(
        version: UInt16 = PeerHello.currentVersion, purpose: Purpose = .link, cluster: String, node: String,
        generation: UInt64 = 0, nonce: [UInt8], release: PeerReleaseTag? = .current
    ) {
        self.version = version
        self.purpose = purpose
        self.cluster = cluster
        self.node = node
        self.generation = generation
        self.nonce = nonce
        self.tag = release
    }

    /// A fresh nonce of `nonceSize` bytes from the system's cryptographic generator.
    package static func freshNonce() -> [UInt8] {
        var random = SystemRandomNumberGenerator()
        return (0..<Self.nonceSize).map { _ in UInt8.random(in: .min ... .max, using: &random) }
    }

    /// The hello's payload: what the frame carries and what proofs cover.
    package var payload: [UInt8] {
        var payload = Self.magic
        BinaryWriter.append(self.version, to: &payload)
        payload.append(self.purpose.rawValue)
        BinaryWriter.appendString(self.cluster, to: &payload)
        BinaryWriter.appendString(self.node, to: &payload)
        BinaryWriter.append(self.generation, to: &payload)
        BinaryWriter.appendBytes(self.nonce + (self.tag?.encoded ?? []), to: &payload)
        return payload
    }

    /// The hello as a whole frame, ready to send.
    package var frame: PeerFrame { PeerFrame(kind: PeerFrame.handshakeKind, payload: self.payload) }

    /// Reads a hello frame. The version is read first, so a node of another release is told so even when the rest
    /// of its hello has another layout.
    ///
    /// - Throws: `.unexpectedFrame` for another kind of frame, `.malformedHello` for bytes that are not a hello,
    ///   `.versionMismatch` for a hello of another protocol version.
    package init(decoding frame: PeerFrame) throws(PeerFrameError) {
        guard frame.kind == PeerFrame.handshakeKind else {
            throw PeerFrameError(
                .unexpectedFrame,
                "The peer sent a frame of kind \(frame.kind) before its hello; it does not speak the Hearth peer "
                    + "protocol. Check that the address is another node's peerPort."
            )
        }
        var reader = BinaryReader(bytes: frame.payload)
        do throws(BinaryDecodingError) {
            guard try reader.readBytes(count: Self.magic.count) == Self.magic else {
                throw BinaryDecodingError("bad magic")
            }
            self.version = try reader.readUInt16()
        } catch {
            throw Self.malformed(error)
        }
        guard self.version == Self.currentVersion else {
            throw PeerFrameError(
                .versionMismatch,
                "The peer speaks peer protocol version \(self.version), this node \(Self.currentVersion) (hearth "
                    + "\(HearthVersion.release)); run releases the upgrade rule allows together (docs/operations.md, "
                    + "Upgrades)."
            )
        }
        do throws(BinaryDecodingError) {
            guard let purpose = Purpose(rawValue: try reader.readUInt8()) else {
                throw BinaryDecodingError("unknown purpose")
            }
            self.purpose = purpose
            self.cluster = try reader.readString()
            self.node = try reader.readString()
            self.generation = try reader.readUInt64()
            (self.nonce, self.tag) = PeerReleaseTag.split(
                try reader.readLengthPrefixedBytes(), nonceSize: Self.nonceSize)
            guard (Self.minimumNonceSize...Self.maximumNonceSize).contains(self.nonce.count) else {
                throw BinaryDecodingError("a nonce of \(self.nonce.count) bytes")
            }
            guard reader.isAtEnd else { throw BinaryDecodingError("bytes after the hello") }
        } catch {
            throw Self.malformed(error)
        }
    }

    private static func malformed(_ error: BinaryDecodingError) -> PeerFrameError {
        PeerFrameError(
            .malformedHello,
            "The peer's hello is not a Hearth hello (\(error)); check that the address is another node's peerPort."
        )
    }

    /// Checks that this received hello's sender and this node, whose release and floor are `local`, may run
    /// together (`ReleaseRule`).
    ///
    /// - Throws: `.releaseIncompatible`, naming both releases and which node to upgrade.
    package func check(release local: PeerReleaseTag) throws(PeerFrameError) {
        let peer = self.release
        switch ReleaseRule.verdict(
            local: local.release, localMinimum: local.minimumPeer, peer: peer.release, peerMinimum: peer.minimumPeer)
        {
        case .compatible:
            return
        case .peerTooOld(let needs):
            throw PeerFrameError(
                .releaseIncompatible,
                "Node \(self.node) runs hearth \(peer.release); this node runs hearth \(local.release) and needs at "
                    + "least \(needs) — upgrade \(self.node) (docs/operations.md, Upgrades)."
            )
        case .localTooOld(let needs):
            throw PeerFrameError(
                .releaseIncompatible,
                "This node runs hearth \(local.release); node \(self.node) runs hearth \(peer.release) and the cluster "
                    + "needs at least \(needs) — upgrade this node (docs/operations.md, Upgrades)."
            )
        }
    }

    /// Checks that this received hello comes from a member of `cluster`.
    ///
    /// - Throws: `.clusterMismatch`, naming both sides.
    package func check(cluster: String) throws(PeerFrameError) {
        guard self.cluster == cluster else {
            throw PeerFrameError(
                .clusterMismatch,
                "Node \(self.node) belongs to cluster \"\(self.cluster)\", this node to \"\(cluster)\"; check the "
                    + "configuration's name and the peer addresses."
            )
        }
    }
}
