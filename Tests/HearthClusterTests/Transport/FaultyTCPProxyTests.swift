import HearthCluster
import HearthNet
import HearthTestKit
import Testing

@Suite struct FaultyTCPProxyTests {
    typealias Harness = PeerTransportHarness

    private func pair() throws -> (n1: PeerTransport, n2: PeerTransport, proxy: FaultyTCPProxy, inbox2: FrameInbox) {
        let inbox2 = FrameInbox()
        let n1 = try Harness.start(try Harness.configuration("n1"), inbox: FrameInbox())
        let n2 = try Harness.start(try Harness.configuration("n2"), inbox: inbox2)
        let proxy = try FaultyTCPProxy(targetPort: n2.port)
        n1.addPeer("n2", at: try SocketAddress(host: "127.0.0.1", port: proxy.port))
        n2.addPeer("n1", at: try SocketAddress(host: "127.0.0.1", port: n1.port))
        return (n1, n2, proxy, inbox2)
    }

    /// Forwarding carries bytes unchanged; the proxy counts the connections it carries. On a loaded machine the
    /// first dial may time out in its 5 s handshake and be redialled (frames wait in the link's queue meanwhile), so
    /// the test waits longer than one handshake, and at least one connection was accepted, one is open.
    @Test(.timeLimit(.minutes(1))) func forwards() async throws {
        let (n1, n2, proxy, inbox2) = try self.pair()
        defer { proxy.close() }
        let payloads = Harness.numbered(500, size: 300)
        for payload in payloads { n1.send(payload, kind: 1, to: "n2") }
        let arrived = await eventually(seconds: 30) { inbox2.all.count == 500 }
        #expect(
            arrived,
            "\(inbox2.all.count) of 500 frames arrived; n1's link: \(String(describing: n1.statistics(for: "n2")))")
        #expect(inbox2.payloads(from: "n1") == payloads)
        #expect(proxy.acceptedConnections >= 1)
        #expect(await eventually(seconds: 30) { proxy.openConnections == 1 })
        await n1.shutdown()
        await n2.shutdown()
    }

    /// A blackhole swallows bytes while the connection looks up; healing resets it and new frames flow.
    @Test(.timeLimit(.minutes(1))) func blackholesAndHeals() async throws {
        let (n1, n2, proxy, inbox2) = try self.pair()
        defer { proxy.close() }
        #expect(await Harness.waitConnected(n1, n2))
        proxy.setMode(.blackhole)
        try await Task.sleep(for: .milliseconds(50))
        n1.send([1], kind: 1, to: "n2")
        try await Task.sleep(for: .milliseconds(200))
        #expect(inbox2.all.isEmpty)
        #expect(n1.statistics(for: "n2")?.isConnected == true)
        proxy.heal()
        #expect(await eventually { (n1.statistics(for: "n2")?.reconnects ?? 0) >= 1 })
        n1.send([2], kind: 1, to: "n2")
        #expect(await eventually { inbox2.payloads(from: "n1") == [[2]] })
        await n1.shutdown()
        await n2.shutdown()
    }

    /// Dropping connections resets them but keeps accepting: the dialer is back at once.
    @Test(.timeLimit(.minutes(1))) func dropsConnections() async throws {
        let (n1, n2, proxy, inbox2) = try self.pair()
        defer { proxy.close() }
        #expect(await Harness.waitConnected(n1, n2))
        proxy.dropConnections()
        #expect(await eventually(seconds: 30) { proxy.acceptedConnections >= 2 && proxy.openConnections == 1 })
        #expect(await Harness.waitConnected(n1, n2))
        n1.send([3], kind: 1, to: "n2")
        #expect(await eventually { inbox2.payloads(from: "n1") == [[3]] })
        await n1.shutdown()
        await n2.shutdown()
    }
}
