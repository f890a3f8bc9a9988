/// Which Hearth releases may run side by side in one cluster, as a pure rule every peer handshake applies.
///
/// Each node accepts peers of its own minor release and of the one before it within its major release (a rolling
/// upgrade goes one minor release at a time: 0.1 → 0.2 → 0.3), and never a peer older than the floor its operator
/// set (`hearth serve --minimum-peer-release`, raised once every member runs the new release, so that a member
/// left on the old one cannot come back). Both sides check both ways, since each hello carries its sender's release
/// and the oldest release it accepts: the older side of an incompatible pair refuses itself, naming both versions.
///
/// A newer release never writes a log entry, snapshot or frame an older release it accepts could not read: a new
/// format may only be introduced by a release whose previous minor release already reads it, or behind a cluster
/// version every member has reached.
public enum ReleaseRule {
    /// What a node concludes about a peer from the two releases and the two floors.
    public enum Verdict: Sendable, Hashable {
        /// They may run together.
        case compatible
        /// The peer's release is older than this node accepts.
        case peerTooOld(needs: HearthRelease)
        /// This node's release is older than the peer accepts: this node must be upgraded.
        case localTooOld(needs: HearthRelease)
    }

    /// The release of peers that carry no release in their hello: 0.1.0, the first to speak peer protocol 2, which
    /// accepted any peer of that protocol.
    public static let untagged = HearthRelease(major: 0, minor: 1, patch: 0)

    /// The oldest release `release` runs beside: the first of the previous minor release of the same major, or
    /// `release`'s own minor release when it is the first of its major (no rolling upgrade across majors).
    public static func oldestPeer(of release: HearthRelease) -> HearthRelease {
        HearthRelease(major: release.major, minor: release.minor > 0 ? release.minor - 1 : 0, patch: 0)
    }

    /// Whether a node of `local` accepting peers from `localMinimum` on may run beside a peer of `peer` that accepts
    /// peers from `peerMinimum` on. A too-old peer is named first, so both sides of a refused pair name the same
    /// fault.
    public static func verdict(
        local: HearthRelease, localMinimum: HearthRelease, peer: HearthRelease, peerMinimum: HearthRelease
    ) -> Verdict {
        if peer < localMinimum { return .peerTooOld(needs: localMinimum) }
        if local < peerMinimum { return .localTooOld(needs: peerMinimum) }
        return .compatible
    }

    /// Checks an operator's floor for a node of `release`: it may not be newer than `release` (the node would
    /// refuse its own release) and is never lower than `oldestPeer(of:)`.
    ///
    /// - Returns: the floor to use (`oldestPeer(of:)` when none is requested), or nil when `requested` is newer than
    ///   `release`.
    public static func floor(_ requested: HearthRelease?, for release: HearthRelease) -> HearthRelease? {
        let oldest = Self.oldestPeer(of: release)
        guard let requested else { return oldest }
        guard requested <= release else { return nil }
        return max(requested, oldest)
    }
}
