import HearthCluster
import HearthNet
import HearthSystem
import HearthTestKit
import Testing

/// The upgrade rule over real loopback connections: members of adjacent releases link up, and a member older than
/// a peer accepts never does, each refusal counted under its reason.
@Suite struct PeerReleaseLoopbackTests {
    typealias Harness = PeerTransportHarness

    static func configuration(_ node: NodeID, release: String, accepting minimum: String) throws
        -> PeerTransport.Configuration
    {
        var configuration = try Harness.configuration(node)
        guard let release = HearthRelease(parsing: release), let minimum = HearthRelease(parsing: minimum) else {
            throw PeerJoinError("not a release")
        }
        configuration.release = PeerReleaseTag(release: release, minimumPeer: minimum)
        return configuration
    }

    /// A member of the previous minor release and one of this release link up and carry frames.
    @Test(.timeLimit(.minutes(1))) func adjacentReleasesLinkUp() async throws {
        let inbox2 = FrameInbox()
        let n1 = try Harness.start(
            try Self.configuration("n1", release: "0.1.0", accepting: "0.1.0"), inbox: FrameInbox())
        let n2 = try Harness.start(try Self.configuration("n2", release: "0.2.0", accepting: "0.1.0"), inbox: inbox2)
        try Harness.connectAll([n1, n2])
        #expect(await Harness.waitConnected(n1, n2))
        #expect(n1.send([5], kind: 1, to: "n2") == .queued)
        #expect(await eventually { inbox2.payloads(from: "n1") == [[5]] })
        await n1.shutdown()
        await n2.shutdown()
    }

    /// A member below its peer's floor never links up, and both count the refusals as `releaseIncompatible`.
    @Test(.timeLimit(.minutes(1))) func aTooOldMemberIsRefusedAndCounted() async throws {
        let old = try Self.configuration("n1", release: "0.1.0", accepting: "0.1.0")
        let new = try Self.configuration("n2", release: "0.2.0", accepting: "0.2.0")
        let n1 = try Harness.start(old, inbox: FrameInbox())
        let n2 = try Harness.start(new, inbox: FrameInbox())
        try Harness.connectAll([n1, n2])
        n1.send([1], kind: 1, to: "n2")
        #expect(await eventually { (n2.refusedHandshakesByReason["releaseIncompatible"] ?? 0) >= 1 })
        #expect(await eventually { (n1.refusedHandshakesByReason["releaseIncompatible"] ?? 0) >= 1 })
        #expect(n1.statistics(for: "n2")?.connectionsEstablished == 0)
        await n1.shutdown()
        await n2.shutdown()
    }
}
