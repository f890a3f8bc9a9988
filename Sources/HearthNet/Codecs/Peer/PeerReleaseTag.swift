import HearthCore
package import HearthSystem

/// What a hello says of its sender's release: the release it runs and the oldest release it accepts as a peer, so
/// that both sides of a connection apply `ReleaseRule` to both (the older side of a refused pair learns why).
///
/// It travels after the 32 random bytes of the hello's nonce field, where release 0.1.0 (peer protocol 2, which
/// accepts any nonce of 16 to 64 bytes and never looks inside it) carries it unread, and where the proofs cover it.
/// Layout: the magic `HRRL`, then the release and the floor, each as three `u16` (major, minor, patch).
package struct PeerReleaseTag: Sendable, Hashable {
    /// The first bytes of a tag.
    static let magic: [UInt8] = Array("HRRL".utf8)
    /// A tag's size in bytes.
    static let size = 16

    /// The sender's release.
    package let release: HearthRelease
    /// The oldest release the sender accepts as a peer.
    package let minimumPeer: HearthRelease

    package init(release: HearthRelease, minimumPeer: HearthRelease) {
        self.release = release
        self.minimumPeer = minimumPeer
    }

    /// This build's release, accepting the oldest peers `ReleaseRule` allows.
    package static let current = PeerReleaseTag(
        release: HearthVersion.current, minimumPeer: ReleaseRule.oldestPeer(of: HearthVersion.current))

    /// What a hello without a tag stands for: release 0.1.0, which accepts any peer of its protocol.
    static let untagged = PeerReleaseTag(release: ReleaseRule.untagged, minimumPeer: ReleaseRule.untagged)

    /// The tag's bytes.
    var encoded: [UInt8] {
        var bytes = Self.magic
        for release in [self.release, self.minimumPeer] {
            BinaryWriter.append(release.major, to: &bytes)
            BinaryWriter.append(release.minor, to: &bytes)
            BinaryWriter.append(release.patch, to: &bytes)
        }
        return bytes
    }

    /// Splits a hello's nonce field into the nonce and the tag after it; a field without a tag is all nonce.
    static func split(_ field: [UInt8], nonceSize: Int) -> (nonce: [UInt8], tag: PeerReleaseTag?) {
        guard field.count == nonceSize + Self.size,
            field[nonceSize..<(nonceSize + Self.magic.count)].elementsEqual(Self.magic)
        else { return (field, nil) }
        var reader = BinaryReader(bytes: Array(field[(nonceSize + Self.magic.count)...]))
        do throws(BinaryDecodingError) {
            let release = HearthRelease(
                major: try reader.readUInt16(), minor: try reader.readUInt16(), patch: try reader.readUInt16())
            let minimum = HearthRelease(
                major: try reader.readUInt16(), minor: try reader.readUInt16(), patch: try reader.readUInt16())
            return (Array(field[..<nonceSize]), PeerReleaseTag(release: release, minimumPeer: minimum))
        } catch {
            return (field, nil)
        }
    }
}
