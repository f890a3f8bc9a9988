/// One message between two cluster nodes as it travels on their TCP connection: `u32 length` (little-endian, the
/// payload's size) + `u8 kind` + the payload.
///
/// The transport gives frames no meaning beyond the reserved handshake kind (0): the `PeerHello` that opens every
/// connection in both directions and the `PeerProof` that follows it; the kinds above it belong to the protocols
/// the transport carries (Raft, membership, forwarding).
package struct PeerFrame: Sendable, Hashable {
    /// The frames of the handshake (`PeerHello`, `PeerProof`); never delivered to the transport's user.
    package static let handshakeKind: UInt8 = 0
    /// Bytes before the payload: the length and the kind.
    package static let headerSize = 5
    /// The default limit on a payload: 16 MiB, room for a snapshot chunk or a large batch of log entries.
    package static let defaultMaximumPayloadSize = 16 * 1024 * 1024
    /// The limit on a payload until the peer has proved the cluster secret: room for a hello, a proof or a join
    /// request, so a stranger cannot make a node hold more than this per connection.
    package static let handshakeMaximumPayloadSize = 4 * 1024

    package let kind: UInt8
    package let payload: [UInt8]

    package init(kind: UInt8, payload: [UInt8]) {
        self.kind = kind
        self.payload = payload
    }

    /// Appends the encoded frame to `bytes`: the one place the header is written. O(payload).
    package static func append(kind: UInt8, payload: some Collection<UInt8>, to bytes: inout [UInt8]) {
        let length = UInt32(truncatingIfNeeded: payload.count)
        bytes.reserveCapacity(bytes.count + Self.headerSize + payload.count)
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: length >> UInt32(shift))) }
        bytes.append(kind)
        bytes.append(contentsOf: payload)
    }

    /// The frame's bytes on the wire.
    package var encoded: [UInt8] {
        var bytes: [UInt8] = []
        Self.append(kind: self.kind, payload: self.payload, to: &bytes)
        return bytes
    }
}
