import HearthSystem
import Testing

/// The upgrade rule as a value: releases of one minor release and the one before it run together, an older one is
/// refused by whichever side sees it, and an operator's floor can only raise the oldest accepted release.
@Suite struct ReleaseRuleTests {
    static func release(_ text: String) -> HearthRelease {
        guard let release = HearthRelease(parsing: text) else { fatalError("\(text) is not a release") }
        return release
    }

    /// Releases parse from `MAJOR.MINOR.PATCH` only, and compare by major, then minor, then patch.
    @Test func releasesParseAndCompare() {
        #expect(Self.release("0.2.0").description == "0.2.0")
        for text in ["", "1", "1.2", "1.2.3.4", "1..3", "a.b.c", "-1.2.3", "70000.0.0", "1.2.+3", "1.2.٣"] {
            #expect(HearthRelease(parsing: text) == nil, "\(text)")
        }
        #expect(Self.release("0.1.9") < Self.release("0.2.0"))
        #expect(Self.release("0.10.0") > Self.release("0.9.9"))
        #expect(Self.release("1.0.0") > Self.release("0.99.99"))
    }

    /// A release accepts its own minor release and the previous one, from its first patch; the first minor release
    /// of a major accepts only its own. This release accepts 0.2.0, so a cluster of 0.2.0 upgrades member by member.
    @Test func theOldestPeerIsThePreviousMinorRelease() {
        #expect(ReleaseRule.oldestPeer(of: Self.release("0.2.0")) == Self.release("0.1.0"))
        #expect(ReleaseRule.oldestPeer(of: Self.release("0.3.4")) == Self.release("0.2.0"))
        #expect(ReleaseRule.oldestPeer(of: Self.release("2.0.1")) == Self.release("2.0.0"))
        #expect(ReleaseRule.oldestPeer(of: HearthVersion.current) <= Self.release("0.2.0"))
    }

    /// Adjacent minor releases are compatible both ways; two minor releases apart, the newer side refuses the peer
    /// and the older side refuses itself, each naming the release needed.
    @Test func adjacentReleasesRunTogetherAndOlderOnesAreRefused() {
        let old = Self.release("0.1.0")
        let new = Self.release("0.2.0")
        let newer = Self.release("0.3.0")
        func verdict(_ local: HearthRelease, _ peer: HearthRelease) -> ReleaseRule.Verdict {
            ReleaseRule.verdict(
                local: local, localMinimum: ReleaseRule.oldestPeer(of: local), peer: peer,
                peerMinimum: ReleaseRule.oldestPeer(of: peer))
        }
        #expect(verdict(new, old) == .compatible)
        #expect(verdict(old, new) == .compatible)
        #expect(verdict(new, new) == .compatible)
        #expect(verdict(newer, old) == .peerTooOld(needs: new))
        #expect(verdict(old, newer) == .localTooOld(needs: new))
    }

    /// A floor raised to this release refuses the previous one, which still accepts this one by its own rule, so
    /// only the floor's side can name the fault.
    @Test func aRaisedFloorRefusesThePreviousRelease() {
        let old = Self.release("0.1.0")
        let new = Self.release("0.2.0")
        #expect(
            ReleaseRule.verdict(local: new, localMinimum: new, peer: old, peerMinimum: old) == .peerTooOld(needs: new))
        #expect(
            ReleaseRule.verdict(local: old, localMinimum: old, peer: new, peerMinimum: new) == .localTooOld(needs: new))
    }

    /// A floor newer than the node's own release is refused; one older than the rule's is raised to it; none means
    /// the rule's.
    @Test func theFloorStaysBetweenTheRuleAndTheRelease() {
        let new = Self.release("0.3.0")
        #expect(ReleaseRule.floor(nil, for: new) == Self.release("0.2.0"))
        #expect(ReleaseRule.floor(Self.release("0.1.0"), for: new) == Self.release("0.2.0"))
        #expect(ReleaseRule.floor(Self.release("0.3.0"), for: new) == new)
        #expect(ReleaseRule.floor(Self.release("0.3.1"), for: new) == nil)
    }
}
