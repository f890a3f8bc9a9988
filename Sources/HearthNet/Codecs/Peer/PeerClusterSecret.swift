/// The secret every member of a cluster holds (the file the configuration's `secretFile` names): peers prove they
/// know it in every handshake (`PeerHandshake`) without ever sending it.
///
/// It holds one or more keys so it can be rotated without downtime: the first key signs this node's proofs, and a
/// peer's proof made with any of them is accepted.
package struct PeerClusterSecret: Sendable {
    /// The fewest bytes a key may have: 32 characters of base64 carry 24 random bytes, well past guessing.
    package static let minimumKeyLength = 32

    /// The keys, the one that signs first.
    package let keys: [[UInt8]]

    /// `nil` when there is no key or a key is shorter than `minimumKeyLength`.
    package init?(keys: [[UInt8]]) {
        guard !keys.isEmpty, keys.allSatisfy({ $0.count >= Self.minimumKeyLength }) else { return nil }
        self.keys = keys
    }
}
