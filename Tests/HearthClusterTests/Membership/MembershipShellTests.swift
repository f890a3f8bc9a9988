import HearthCluster
import HearthNet
import HearthSystem
import HearthTestKit
import Synchronization
import Testing

/// The SWIM shell over real time: in memory (a network the test can cut), and over real peer transports. The waits
/// are long because the suite's CPU-heavy tests can hold the cooperative pool for seconds; they end as soon as
/// the condition holds.
@Suite struct MembershipShellTests {
    /// Fast settings, so a test sees probes, suspicion and death within a second or two.
    static var fast: SWIMSettings {
        var settings = SWIMSettings()
        settings.probeInterval = .milliseconds(20)
        settings.pingTimeout = .milliseconds(30)
        settings.pingRequestTimeout = .milliseconds(80)
        settings.suspicionTimeoutMin = .milliseconds(300)
        settings.suspicionTimeoutMax = .milliseconds(600)
        settings.reconnectInterval = .milliseconds(200)
        return settings
    }

    static func member(_ id: NodeID, generation: UInt64 = 1) -> SWIMMember {
        SWIMMember(
            id: id, address: SWIMAddress(host: "127.0.0.1", peerPort: 1, httpPort: 2), generation: generation)
    }

    /// Shells that deliver to each other in memory, unless the test cut a node off.
    final class Network: Sendable {
        let shells = Mutex<[NodeID: MembershipShell]>([:])
        let isolated = Mutex<Set<NodeID>>([])

        func makeShell(_ id: NodeID, generation: UInt64 = 1) throws -> MembershipShell {
            let instance = try SWIMInstance(
                myself: MembershipShellTests.member(id, generation: generation), settings: MembershipShellTests.fast,
                random: SeededRandom(seed: generation &* 31 &+ UInt64(id.name.utf8.count)))
            let shell = MembershipShell(instance: instance, log: Log(level: .critical)) { [self] to, bytes in
                let cut = self.isolated.withLock { $0.contains(id) || $0.contains(to) }
                guard !cut, let target = self.shells.withLock({ $0[to] }) else { return }
                target.receive(bytes, from: id)
            } resolve: { _ in
                nil
            }
            self.shells.withLock { $0[id] = shell }
            return shell
        }
    }

    static func status(of id: NodeID, at shell: MembershipShell) -> SWIMStatus? {
        shell.members.first { $0.id == id }?.status
    }

    @Test(.timeLimit(.minutes(1))) func membersFindEachOtherAndDetectACrash() async throws {
        let network = Network()
        let ids: [NodeID] = ["n1", "n2", "n3"]
        let shells = try ids.map { try network.makeShell($0) }
        let runs = shells.map { shell in Task { await shell.run() } }
        for shell in shells { shell.start(knownPeers: ids) }
        #expect(
            await eventually(seconds: 30) {
                shells.allSatisfy { shell in
                    ids.filter { $0 != shell.myself.id }.allSatisfy { Self.status(of: $0, at: shell) == .alive }
                }
            })
        network.isolated.withLock { _ = $0.insert("n3") }
        runs[2].cancel()
        #expect(await eventually(seconds: 30) { Self.status(of: "n3", at: shells[0]) == .dead })
        #expect(await eventually(seconds: 30) { Self.status(of: "n3", at: shells[1]) == .dead })

        network.isolated.withLock { $0.removeAll() }
        let restarted = try network.makeShell("n3", generation: 2)
        let rerun = Task { await restarted.run() }
        restarted.start(knownPeers: ["n1", "n2"])
        #expect(
            await eventually(seconds: 30) {
                shells[0].members.first { $0.id == "n3" }.map { $0.generation == 2 && $0.status == .alive } == true
            })
        for run in runs + [rerun] { run.cancel() }
    }

    @Test(.timeLimit(.minutes(1))) func membersFindEachOtherOverPeerTransports() async throws {
        let ids: [NodeID] = ["n1", "n2", "n3"]
        let shells = Mutex<[NodeID: MembershipShell]>([:])
        var transports: [PeerTransport] = []
        for id in ids {
            let configuration = PeerTransport.Configuration(
                node: id, cluster: "test", secret: PeerTransportHarness.secret,
                listenAddress: try SocketAddress(host: "127.0.0.1", port: 0))
            transports.append(
                try PeerTransport(configuration: configuration, log: Log(level: .critical)) { from, kind, payload in
                    guard kind == PeerFrameKind.membership.rawValue else { return }
                    shells.withLock { $0[id] }?.receive(payload, from: from)
                })
        }
        for transport in transports {
            for other in transports where other !== transport {
                transport.addPeer(other.node, at: try SocketAddress(host: "127.0.0.1", port: other.port))
            }
        }
        for (id, transport) in zip(ids, transports) {
            let instance = try SWIMInstance(
                myself: Self.member(id), settings: Self.fast, random: SeededRandom(seed: 7))
            let shell = MembershipShell(instance: instance, log: Log(level: .critical)) { to, bytes in
                transport.send(bytes, kind: PeerFrameKind.membership.rawValue, to: to)
            } resolve: { _ in
                nil
            }
            shells.withLock { $0[id] = shell }
        }
        let all = shells.withLock { $0 }
        let runs = all.values.map { shell in Task { await shell.run() } }
        for shell in all.values { shell.start(knownPeers: ids) }
        #expect(
            await eventually(seconds: 30) {
                all.values.allSatisfy { shell in
                    shell.members.count == 2 && shell.members.allSatisfy { $0.status == .alive }
                }
            })
        for run in runs { run.cancel() }
        for transport in transports { await transport.shutdown() }
    }
}
