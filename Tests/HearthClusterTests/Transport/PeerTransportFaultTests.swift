import HearthCluster
import HearthNet
import HearthTestKit
import Synchronization
import Testing

@Suite struct PeerTransportFaultTests {
    typealias Harness = PeerTransportHarness

    /// Starts n1 and n2 with n1 dialing n2 through a proxy.
    private func proxiedPair(
        configure: (inout PeerTransport.Configuration) -> Void = { _ in }
    ) throws -> (n1: PeerTransport, n2: PeerTransport, proxy: FaultyTCPProxy, inbox2: FrameInbox) {
        var configuration1 = try Harness.configuration("n1")
        configure(&configuration1)
        let inbox2 = FrameInbox()
        let n1 = try Harness.start(configuration1, inbox: FrameInbox())
        let n2 = try Harness.start(try Harness.configuration("n2"), inbox: inbox2)
        let proxy = try FaultyTCPProxy(targetPort: n2.port)
        n1.addPeer("n2", at: try SocketAddress(host: "127.0.0.1", port: proxy.port))
        n2.addPeer("n1", at: try SocketAddress(host: "127.0.0.1", port: n1.port))
        return (n1, n2, proxy, inbox2)
    }

    /// A peer that stops reading makes the sender drop new frames once its bounded queue is full; memory stays
    /// within the limit, and frames flow again once the peer reads.
    @Test(.timeLimit(.minutes(1))) func aStalledPeerMakesTheSenderDropNotGrow() async throws {
        let limit = 256 * 1024
        let (n1, n2, proxy, inbox2) = try self.proxiedPair { configuration in
            configuration.outboundQueueLimit = limit
            configuration.socketHighWater = 64 * 1024
        }
        defer { proxy.close() }
        #expect(await Harness.waitConnected(n1, n2))
        proxy.setMode(.stall)
        try await Task.sleep(for: .milliseconds(50))
        let payload = [UInt8](repeating: 0xAB, count: 16 * 1024)
        var outcomes: [PeerTransport.SendOutcome] = []
        for _ in 0..<2_000 {
            outcomes.append(n1.send(payload, kind: 2, to: "n2"))
            if outcomes.count % 100 == 0 { try await Task.sleep(for: .milliseconds(5)) }
        }
        let statistics = try #require(n1.statistics(for: "n2"))
        #expect(outcomes.contains(.dropped))
        #expect(statistics.framesDropped == UInt64(outcomes.filter { $0 == .dropped }.count))
        #expect(statistics.queuedBytes <= limit)
        #expect(statistics.framesSent < 2_000)

        proxy.heal()
        #expect(await eventually { n1.statistics(for: "n2")?.queuedBytes == 0 })
        n1.send([7, 7, 7], kind: 3, to: "n2")
        #expect(await eventually(seconds: 10) { inbox2.all.last?.payload == [7, 7, 7] })
        #expect(inbox2.all.count == outcomes.filter { $0 == .queued }.count + 1)
        await n1.shutdown()
        await n2.shutdown()
    }

    /// The partition fault hook drops frames both ways while connections stay up, and healing restores them.
    @Test(.timeLimit(.minutes(1))) func aPartitionDropsBothWaysUntilHealed() async throws {
        let inbox1 = FrameInbox()
        let inbox2 = FrameInbox()
        let n1 = try Harness.start(try Harness.configuration("n1"), inbox: inbox1)
        let n2 = try Harness.start(try Harness.configuration("n2"), inbox: inbox2)
        try Harness.connectAll([n1, n2])
        #expect(await Harness.waitConnected(n1, n2))
        // Counted once both sides are connected: a loaded machine may redial before that (a handshake timing out).
        let established = n1.statistics(for: "n2")?.connectionsEstablished
        n1.partition(from: ["n2"])
        #expect(n1.partitionedPeers == ["n2"])
        #expect(n1.send([1], kind: 3, to: "n2") == .partitioned)
        #expect(n2.send([2], kind: 3, to: "n1") == .queued)
        #expect(await eventually { n1.statistics(for: "n2")?.framesReceived == 1 })
        #expect(inbox1.all.isEmpty)
        n1.heal()
        #expect(n1.send([3], kind: 3, to: "n2") == .queued)
        #expect(n2.send([4], kind: 3, to: "n1") == .queued)
        #expect(await eventually { inbox2.payloads(from: "n1") == [[3]] && inbox1.payloads(from: "n2") == [[4]] })
        #expect(n1.statistics(for: "n2")?.connectionsEstablished == established, "the partition closed nothing")
        await n1.shutdown()
        await n2.shutdown()
    }

    /// The proxy cuts the link: both sides see it down, frames queue (a request that needs a connection is refused
    /// at once); after healing the dialer reconnects and the queued frames arrive, in order.
    @Test(.timeLimit(.minutes(1))) func aCutLinkReconnectsAfterHealing() async throws {
        let (n1, n2, proxy, inbox2) = try self.proxiedPair()
        defer { proxy.close() }
        let lost = Mutex<[NodeID]>([])
        n1.setDisconnectHandler { peer in lost.withLock { $0.append(peer) } }
        #expect(await Harness.waitConnected(n1, n2))
        n1.send([0], kind: 1, to: "n2")
        #expect(await eventually { inbox2.all.count == 1 })

        proxy.cut()
        #expect(await eventually { n1.statistics(for: "n2")?.isConnected == false })
        #expect(await eventually { lost.withLock { $0 } == ["n2"] })
        #expect(await eventually { n2.statistics(for: "n1")?.isConnected == false })
        #expect(n1.send([9], kind: 1, to: "n2", requireConnection: true) == .disconnected)
        let payloads = Harness.numbered(20, from: 1)
        for payload in payloads { n1.send(payload, kind: 1, to: "n2") }
        try await Task.sleep(for: .milliseconds(200))
        #expect(inbox2.all.count == 1)

        proxy.heal()
        #expect(await Harness.waitConnected(n1, n2))
        #expect(await eventually { inbox2.all.count == 21 })
        #expect(Array(inbox2.payloads(from: "n1").dropFirst()) == payloads)
        #expect((n1.statistics(for: "n2")?.reconnects ?? 0) >= 1)
        await n1.shutdown()
        await n2.shutdown()
    }

    /// A node of another cluster is never talked to: the handshake fails on both sides, nothing is delivered.
    @Test(.timeLimit(.minutes(1))) func refusesAnotherCluster() async throws {
        try await Harness.expectRefusedPair(
            try Harness.configuration("n1", cluster: "alpha"), try Harness.configuration("n2", cluster: "beta"))
    }

    /// A raw client speaking another protocol version, a stranger's id, one that sends a frame instead of its proof,
    /// or nothing at all is disconnected.
    @Test(.timeLimit(.minutes(1))) func refusesAnotherVersionOrAStranger() async throws {
        var configuration = try Harness.configuration("n2")
        configuration.handshakeTimeout = .milliseconds(200)
        let inbox = FrameInbox()
        let n2 = try Harness.start(configuration, inbox: inbox)
        n2.addPeer("n1", at: try SocketAddress(host: "127.0.0.1", port: 1))
        let port = n2.port
        let hellos = [
            PeerHello(version: 1, cluster: "test", node: "n1", nonce: PeerHello.freshNonce()),
            PeerHello(cluster: "test", node: "n3", nonce: PeerHello.freshNonce()),
            PeerHello(cluster: "test", node: "n0", nonce: PeerHello.freshNonce()),
            PeerHello(cluster: "test", node: "n1", nonce: PeerHello.freshNonce()),
        ]
        for hello in hellos {
            let closed = try await onDedicatedThread {
                let client = try LoopbackConnection(port: port, timeoutSeconds: 5)
                try client.send(hello.frame.encoded + PeerFrame(kind: 1, payload: [1]).encoded)
                return client.isClosedByServer()
            }
            #expect(closed, "\(hello)")
        }
        let silent = try await onDedicatedThread {
            let client = try LoopbackConnection(port: port, timeoutSeconds: 5)
            return client.isClosedByServer()
        }
        #expect(silent)
        #expect(inbox.all.isEmpty)
        await n2.shutdown()
    }

    /// A frame above the limit is refused by `send`, and a peer that sends one is disconnected.
    @Test(.timeLimit(.minutes(1))) func refusesFramesAboveTheLimit() async throws {
        var configuration = try Harness.configuration("n2")
        configuration.maximumPayloadSize = 1_024
        let inbox = FrameInbox()
        let n2 = try Harness.start(configuration, inbox: inbox)
        n2.addPeer("n1", at: try SocketAddress(host: "127.0.0.1", port: 1))
        #expect(n2.send([UInt8](repeating: 0, count: 1_025), kind: 1, to: "n1") == .tooLarge)
        #expect(n2.send([1], kind: 0, to: "n1") == .refused)
        #expect(n2.send([1], kind: 1, to: "n9") == .refused)
        let port = n2.port
        let closed = try await onDedicatedThread {
            var client = try RawPeer(port: port, node: "n1")
            try client.completeHandshake()
            let small = PeerFrame(kind: 1, payload: [UInt8](repeating: 1, count: 1_024)).encoded
            try client.connection.send(small + [0x01, 0x04, 0, 0, 1])
            return client.connection.isClosedByServer()
        }
        #expect(closed)
        #expect(await eventually { inbox.all.count == 1 })
        #expect(inbox.all.first?.payload.count == 1_024)
        await n2.shutdown()
    }
}
