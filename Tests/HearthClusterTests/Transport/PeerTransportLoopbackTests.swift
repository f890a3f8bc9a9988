import HearthCluster
import HearthNet
import HearthTestKit
import Testing

@Suite struct PeerTransportLoopbackTests {
    typealias Harness = PeerTransportHarness

    /// Two nodes exchange a thousand frames each way over one connection, in order, with kinds intact.
    @Test(.timeLimit(.minutes(1))) func twoNodesExchangeFramesBothWaysInOrder() async throws {
        let inbox1 = FrameInbox()
        let inbox2 = FrameInbox()
        let n1 = try Harness.start(try Harness.configuration("n1"), inbox: inbox1)
        let n2 = try Harness.start(try Harness.configuration("n2"), inbox: inbox2)
        try Harness.connectAll([n1, n2])
        let payloads = Harness.numbered(1_000)
        for payload in payloads {
            #expect(n1.send(payload, kind: 7, to: "n2") == .queued)
            #expect(n2.send(payload, kind: 9, to: "n1") == .queued)
        }
        #expect(await eventually { inbox2.all.count == 1_000 && inbox1.all.count == 1_000 })
        #expect(inbox2.payloads(from: "n1") == payloads)
        #expect(inbox1.payloads(from: "n2") == payloads)
        #expect(inbox2.all.allSatisfy { $0.kind == 7 })
        #expect(inbox1.all.allSatisfy { $0.kind == 9 })
        let statistics = try #require(n1.statistics(for: "n2"))
        #expect(statistics.framesSent == 1_000)
        #expect(statistics.bytesSent == 1_000 * 21)
        #expect(statistics.framesReceived == 1_000)
        // One connection at a time carries the link; on a loaded machine a dial whose handshake outlasts its timeout
        // is dialled again, and the late one then replaces it, so a link may have been established more than once.
        #expect(statistics.connectionsEstablished >= 1 && statistics.isConnected)
        #expect(statistics.framesDropped == 0)
        #expect((n2.statistics(for: "n1")?.connectionsEstablished ?? 0) >= 1)
        await n1.shutdown()
        await n2.shutdown()
    }

    /// Three nodes: every pair has one connection at a time and every node hears every other, in order.
    @Test(.timeLimit(.minutes(1))) func threeNodesTalkPairwise() async throws {
        let inboxes = [FrameInbox(), FrameInbox(), FrameInbox()]
        let nodes: [NodeID] = ["n1", "n2", "n3"]
        let transports = try zip(nodes, inboxes).map { try Harness.start(try Harness.configuration($0), inbox: $1) }
        try Harness.connectAll(transports)
        let payloads = Harness.numbered(300)
        for payload in payloads {
            for sender in transports {
                for receiver in nodes where receiver != sender.node {
                    #expect(sender.send(payload, kind: 1, to: receiver) == .queued)
                }
            }
        }
        #expect(await eventually { inboxes.allSatisfy { $0.all.count == 600 } })
        for (node, inbox) in zip(nodes, inboxes) {
            for sender in nodes where sender != node {
                #expect(inbox.payloads(from: sender) == payloads)
            }
        }
        for transport in transports {
            #expect(transport.peers.count == 2)
            // One current connection per pair; established more than once only after a redial under load.
            #expect(transport.statistics.values.allSatisfy { $0.connectionsEstablished >= 1 && $0.isConnected })
        }
        for transport in transports { await transport.shutdown() }
    }

    /// Frames sent before the peer is up wait in the queue and arrive once it starts.
    ///
    /// The peer's port comes from below the ephemeral range: dialing a free ephemeral loopback port can connect a
    /// socket to itself (TCP simultaneous open), which then holds the port the peer means to listen on.
    @Test(.timeLimit(.minutes(1))) func framesWaitForAPeerThatStartsLater() async throws {
        guard let port = try FreePorts.take(1).first else { return }
        let inbox2 = FrameInbox()
        let n1 = try Harness.start(try Harness.configuration("n1"), inbox: FrameInbox())
        n1.addPeer("n2", at: try SocketAddress(host: "127.0.0.1", port: port))
        let payloads = Harness.numbered(50)
        for payload in payloads { n1.send(payload, kind: 1, to: "n2") }
        try await Task.sleep(for: .milliseconds(100))
        let n2 = try Harness.start(try Harness.configuration("n2", port: port), inbox: inbox2)
        n2.addPeer("n1", at: try SocketAddress(host: "127.0.0.1", port: n1.port))
        #expect(await eventually { inbox2.all.count == 50 })
        #expect(inbox2.payloads(from: "n1") == payloads)
        await n1.shutdown()
        await n2.shutdown()
    }

    /// A restarted peer is reconnected, whichever side restarts, and frames flow again.
    @Test(.timeLimit(.minutes(1))) func reconnectsARestartedPeer() async throws {
        let inbox1 = FrameInbox()
        let n1 = try Harness.start(try Harness.configuration("n1"), inbox: inbox1)
        var n2 = try Harness.start(try Harness.configuration("n2"), inbox: FrameInbox())
        let port2 = n2.port
        try Harness.connectAll([n1, n2])
        #expect(await Harness.waitConnected(n1, n2))

        // The accepting side restarts on the same port: the dialer redials it.
        await n2.shutdown()
        #expect(await eventually { n1.statistics(for: "n2")?.isConnected == false })
        let inbox2 = FrameInbox()
        n2 = try Harness.start(try Harness.configuration("n2", port: port2), inbox: inbox2)
        n2.addPeer("n1", at: try SocketAddress(host: "127.0.0.1", port: n1.port))
        #expect(await Harness.waitConnected(n1, n2))
        n1.send([1], kind: 1, to: "n2")
        #expect(await eventually { inbox2.payloads(from: "n1") == [[1]] })
        // At least once: a dial that lands before the restarted n2 knows n1 (`addPeer` follows `start`) is refused,
        // and the next one counts again.
        #expect((n1.statistics(for: "n2")?.reconnects ?? 0) >= 1)

        // The dialing side restarts: its new connection replaces the old one on the accepting side.
        let port1 = n1.port
        await n1.shutdown()
        let inbox1Again = FrameInbox()
        let n1Again = try Harness.start(try Harness.configuration("n1", port: port1), inbox: inbox1Again)
        n1Again.addPeer("n2", at: try SocketAddress(host: "127.0.0.1", port: port2))
        #expect(await Harness.waitConnected(n1Again, n2))
        n2.send([2], kind: 1, to: "n1")
        #expect(await eventually { inbox1Again.payloads(from: "n2") == [[2]] })
        #expect(inbox1.all.isEmpty)
        await n1Again.shutdown()
        await n2.shutdown()
    }
}
