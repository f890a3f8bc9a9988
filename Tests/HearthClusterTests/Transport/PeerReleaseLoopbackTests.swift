import HearthCluster
import HearthNet
import HearthSystem
import HearthTestKit
import Synchronization
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

    /// A member refused at every handshake is redialled with a growing back-off, not every initial delay: with the
    /// production back-off (50 ms doubling to 2 s) the refusing node sees a handful of attempts in 2 s instead of
    /// about a hundred, and logs the first refusal and then at most one line per 2 s. A starved machine can wake the
    /// test well after its 2 s sleep, so the bounds are for the time that actually passed: past 2 s, at most one
    /// attempt a second each way (the longest delay less its jitter) and one line per 2 s.
    @Test(.timeLimit(.minutes(1))) func aRefusedMemberBacksOffAndItsRefusalsAreNotLoggedEachTime() async throws {
        let production = PeerTransport.Configuration(
            node: "n1", cluster: "test", secret: Harness.secret,
            listenAddress: try SocketAddress(host: "127.0.0.1", port: 0)
        ).backoff
        var old = try Self.configuration("n1", release: "0.1.0", accepting: "0.1.0")
        var new = try Self.configuration("n2", release: "0.2.0", accepting: "0.2.0")
        old.backoff = production
        new.backoff = production
        let lines = Mutex<[String]>([])
        let log = Log(level: .warning) { line in lines.withLock { $0.append(line) } }
        let n1 = try Harness.start(old, inbox: FrameInbox())
        let n2 = try PeerTransport(configuration: new, log: log, onFrame: FrameInbox().handler)
        let started = ContinuousClock.now
        try Harness.connectAll([n1, n2])
        try await Task.sleep(for: .seconds(2))
        let refusals = n2.refusedHandshakes
        let logged = lines.withLock { $0 }.filter { $0.contains("event=peer.refused") }
        let elapsed = (ContinuousClock.now - started) / .seconds(1)
        await n1.shutdown()
        await n2.shutdown()
        #expect(refusals >= 2)
        #expect(refusals <= 10 + 2 * UInt64(max(0, elapsed - 2)), "\(refusals) refusals in \(elapsed) s")
        #expect(logged.count <= 1 + Int(elapsed / 2), "\(logged.count) lines in \(elapsed) s")
        #expect(logged.first?.contains("omitted=0") == true)
    }
}
