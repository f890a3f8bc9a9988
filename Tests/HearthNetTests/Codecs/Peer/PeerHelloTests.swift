import HearthNet
import Testing

@Suite struct PeerHelloTests {
    @Test func roundTrips() throws {
        let hello = PeerHello(cluster: "local-3", node: "n2", generation: 42, nonce: PeerHello.freshNonce())
        let decoded = try PeerHello(decoding: hello.frame)
        #expect(decoded == hello)
        #expect(hello.frame.kind == PeerFrame.handshakeKind)
        #expect(Array(hello.frame.payload.prefix(4)) == Array("HRTH".utf8))
        try decoded.check(cluster: "local-3")
    }

    @Test func refusesAnotherClusterOrVersion() {
        do {
            try PeerHello(cluster: "other", node: "x1", nonce: PeerHello.freshNonce()).check(cluster: "local-3")
            Issue.record("another cluster was accepted")
        } catch {
            #expect(error.code == .clusterMismatch)
            #expect(error.message.contains("\"other\""))
        }
        do {
            _ = try PeerHello(
                decoding: PeerHello(version: 9, cluster: "local-3", node: "n1", nonce: PeerHello.freshNonce()).frame)
            Issue.record("another version was accepted")
        } catch {
            #expect(error.code == .versionMismatch)
        }
    }

    @Test func refusesWhatIsNotAHello() {
        #expect(throws: PeerFrameError.self) { try PeerHello(decoding: PeerFrame(kind: 3, payload: [])) }
        do {
            _ = try PeerHello(decoding: PeerFrame(kind: PeerFrame.handshakeKind, payload: Array("HTTP/1.1".utf8)))
            Issue.record("garbage was accepted as a hello")
        } catch {
            #expect(error.code == .malformedHello)
        }
        var truncated = PeerHello(cluster: "c", node: "n", nonce: PeerHello.freshNonce()).frame.payload
        truncated.removeLast()
        #expect(throws: PeerFrameError.self) {
            try PeerHello(decoding: PeerFrame(kind: PeerFrame.handshakeKind, payload: truncated))
        }
    }
}
