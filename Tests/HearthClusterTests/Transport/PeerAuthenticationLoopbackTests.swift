import HearthCluster
import HearthNet
import HearthTestKit
import Synchronization
import Testing

/// Peers prove the cluster secret before anything else is read: over real loopback connections, a node with
/// another secret, a stranger asking to join, a hello that names a member without its proof, and unfinished large
/// frames before any hello all get nothing.
@Suite struct PeerAuthenticationLoopbackTests {
    typealias Harness = PeerTransportHarness

    /// Two nodes whose secrets differ never connect, and no frame passes between them.
    @Test(.timeLimit(.minutes(1))) func aNodeWithAnotherSecretIsRefused() async throws {
        try await Harness.expectRefusedPair(
            try Harness.configuration("n1"), try Harness.configuration("n2", secret: Harness.otherSecret))
    }

    /// A node that cannot prove the secret never reaches the join handler: not with another secret, not with a
    /// join frame in place of a hello (as before version 2), and not with a join frame in place of its proof.
    @Test(.timeLimit(.minutes(1))) func aStrangersJoinIsNeverRead() async throws {
        let member = try Harness.start(try Harness.configuration("n1"), inbox: FrameInbox())
        let asked = Mutex(0)
        member.setJoinHandler { _, _, reply in
            asked.withLock { $0 += 1 }
            reply(JoinReply.refused("test").encoded())
        }
        let port = member.port
        let address = try SocketAddress(host: "127.0.0.1", port: port)
        let request = JoinRequest(
            node: ClusterConfiguration.Node(id: "evil", host: "127.0.0.1", httpPort: 9004, peerPort: 9104))
        await #expect(throws: PeerJoinError.self) {
            _ = try await onDedicatedThread {
                try PeerJoinClient.ask(address, request, secret: Harness.otherSecret, timeout: .seconds(5))
            }
        }
        let join = PeerFrame(kind: PeerFrameKind.join.rawValue, payload: request.encoded()).encoded
        let closedBeforeHello = try await onDedicatedThread {
            let client = try LoopbackConnection(port: port, timeoutSeconds: 5)
            try client.send(join)
            return client.isClosedByServer()
        }
        #expect(closedBeforeHello)
        let closedBeforeProof = try await onDedicatedThread {
            let client = try RawPeer(port: port, node: "evil", cluster: "", purpose: .join)
            try client.connection.send(join)
            return client.connection.isClosedByServer()
        }
        #expect(closedBeforeProof)
        // With the secret, the same request is read and answered.
        let answer = try await onDedicatedThread {
            try PeerJoinClient.ask(address, request, secret: Harness.secret, timeout: .seconds(5))
        }
        #expect(answer == .refused("test"))
        #expect(asked.withLock { $0 } == 1)
        await member.shutdown()
    }

    /// A connection that names an established member in its hello but cannot prove the secret (no proof, or a
    /// forged one) is closed, and the member's own link stays up and keeps carrying its frames.
    @Test(.timeLimit(.minutes(1))) func aHelloWithoutItsProofCannotReplaceALink() async throws {
        let inbox2 = FrameInbox()
        let n1 = try Harness.start(try Harness.configuration("n1"), inbox: FrameInbox())
        let n2 = try Harness.start(try Harness.configuration("n2"), inbox: inbox2)
        try Harness.connectAll([n1, n2])
        #expect(await Harness.waitConnected(n1, n2))
        let port = n2.port
        let forged = PeerFrame(
            kind: PeerFrame.handshakeKind, payload: PeerProof.magic + [UInt8](repeating: 7, count: 32))
        for attempt in [PeerFrame(kind: 2, payload: [1, 2, 3]), forged] {
            let closed = try await onDedicatedThread {
                let client = try RawPeer(port: port, node: "n1")
                try client.connection.send(attempt.encoded)
                return client.connection.isClosedByServer()
            }
            #expect(closed)
        }
        #expect(n2.refusedHandshakes == 2)
        #expect(n2.statistics(for: "n1")?.connectionsEstablished == 1)
        #expect(n2.statistics(for: "n1")?.isConnected == true)
        #expect(n1.send([9], kind: 1, to: "n2") == .queued)
        #expect(await eventually { inbox2.payloads(from: "n1") == [[9]] })
        await n1.shutdown()
        await n2.shutdown()
    }

    /// 50 connections that each start a 16 MiB frame before any hello are cut off at once: the handshake's frame
    /// limit refuses the header before a byte of the payload is held. Each refusal is counted as `frameTooLarge`,
    /// not as the hello that never came (which the handshake timeout would close): that, and not a wall-clock bound
    /// a starved machine can overrun, shows the header was refused as it arrived.
    @Test(.timeLimit(.minutes(1))) func largeFramesBeforeTheHelloAreCutOffAtOnce() async throws {
        let n2 = try Harness.start(try Harness.configuration("n2"), inbox: FrameInbox())
        let port = n2.port
        let closed = try await onDedicatedThread {
            let clients = try (0..<50).map { _ in try LoopbackConnection(port: port, timeoutSeconds: 30) }
            var header: [UInt8] = []
            PeerFrame.append(kind: 1, payload: [UInt8](), to: &header)
            header[3] = 0x01  // 16 MiB declared
            for client in clients { try client.send(header + [UInt8](repeating: 0, count: 64 * 1024)) }
            return clients.filter { $0.isClosedByServer() }.count
        }
        #expect(closed == 50)
        #expect(await eventually { n2.refusedHandshakes == 50 })
        #expect(n2.refusedHandshakesByReason == ["frameTooLarge": 50])
        await n2.shutdown()
    }
}
