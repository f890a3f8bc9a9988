import HearthCore

/// The first frame each side sends on a peer connection: who it is and what it speaks, so that a node of another
/// cluster, or one speaking another protocol version, is never talked to.
///
/// Payload: the magic `HRTH`, `u16` protocol version, then the cluster name and the sender's node id, each as
/// `u16 length` + UTF-8 (`BinaryWriter.appendString`).
package struct PeerHello: Sendable, Hashable {
    package static let magic: [UInt8] = Array("HRTH".utf8)
    /// The peer protocol version this build speaks; bump it on any incompatible change of a frame's meaning.
    package static let currentVersion: UInt16 = 1

    package let version: UInt16
    package let cluster: String
    package let node: String

    package init(version: UInt16 = PeerHello.currentVersion, cluster: String, node: String) {
        self.version = version
        self.cluster = cluster
        self.node = node
    }

    /// The hello as a whole frame, ready to send.
    package var frame: PeerFrame {
        var payload = Self.magic
        BinaryWriter.append(self.version, to: &payload)
        BinaryWriter.appendString(self.cluster, to: &payload)
        BinaryWriter.appendString(self.node, to: &payload)
        return PeerFrame(kind: PeerFrame.helloKind, payload: payload)
    }

    /// Reads a hello frame.
    ///
    /// - Throws: `.unexpectedFrame` for another kind of frame, `.malformedHello` for bytes that are not a hello.
    package init(decoding frame: PeerFrame) throws(PeerFrameError) {
        guard frame.kind == PeerFrame.helloKind else {
            throw PeerFrameError(
                .unexpectedFrame,
                "The peer sent a frame of kind \(frame.kind) before its hello; it does not speak the Hearth peer "
                    + "protocol. Check that the address is another node's peerPort."
            )
        }
        var reader = BinaryReader(bytes: frame.payload)
        do {
            guard try reader.readBytes(count: 4) == Self.magic else { throw BinaryDecodingError("bad magic") }
            self.version = try reader.readUInt16()
            self.cluster = try reader.readString()
            self.node = try reader.readString()
        } catch {
            throw PeerFrameError(
                .malformedHello,
                "The peer's hello is not a Hearth hello (\(error)); check that the address is another node's peerPort."
            )
        }
    }

    /// Checks that this received hello comes from a member of `cluster` speaking `version`.
    ///
    /// - Throws: `.versionMismatch` or `.clusterMismatch`, naming both sides.
    package func check(cluster: String, version: UInt16 = PeerHello.currentVersion) throws(PeerFrameError) {
        guard self.version == version else {
            throw PeerFrameError(
                .versionMismatch,
                "Node \(self.node) speaks peer protocol version \(self.version), this node \(version); run the same "
                    + "Hearth release on every node."
            )
        }
        guard self.cluster == cluster else {
            throw PeerFrameError(
                .clusterMismatch,
                "Node \(self.node) belongs to cluster \"\(self.cluster)\", this node to \"\(cluster)\"; check the "
                    + "configuration's name and the peer addresses."
            )
        }
    }
}
