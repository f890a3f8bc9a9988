import HearthNet
import Testing

/// The handshake as a value: both sides prove the cluster secret over both hellos before anything else is read,
/// and every way of getting past it without the secret is refused with a typed error.
@Suite struct PeerHandshakeTests {
    static let secret = Self.secret("the cluster secret, thirty-two bytes+")
    static let otherSecret = Self.secret("another secret entirely, 32 bytes++")

    static func secret(_ text: String...) -> PeerClusterSecret {
        guard let secret = PeerClusterSecret(keys: text.map { Array($0.utf8) }) else { fatalError("too short") }
        return secret
    }

    static func hello(_ node: String, cluster: String = "c1", purpose: PeerHello.Purpose = .link) -> PeerHello {
        PeerHello(purpose: purpose, cluster: cluster, node: node, generation: 7, nonce: PeerHello.freshNonce())
    }

    static func pair(
        dialerSecret: PeerClusterSecret = Self.secret, acceptorSecret: PeerClusterSecret = Self.secret
    ) -> (dialer: PeerHandshake, acceptor: PeerHandshake) {
        (
            PeerHandshake(role: .dialer, local: Self.hello("n1"), secret: dialerSecret, expectedPeer: "n2"),
            PeerHandshake(role: .acceptor, local: Self.hello("n2"), secret: acceptorSecret)
        )
    }

    /// The frames `outputs` asks to send.
    static func sent(_ outputs: [PeerHandshake.Output]) -> [PeerFrame] {
        outputs.compactMap { if case .send(let frame) = $0 { frame } else { nil } }
    }

    static func expectRefusal(
        _ code: PeerFrameError.Code, _ body: () throws(PeerFrameError) -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            try body()
            Issue.record("accepted", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == code, "\(error.message)", sourceLocation: sourceLocation)
        }
    }

    /// Two sides with the same secret establish: the dialer proves first, the acceptor only after verifying it.
    @Test func twoSidesWithTheSecretEstablish() throws {
        var (dialer, acceptor) = Self.pair()
        #expect(try acceptor.receive(dialer.opening).isEmpty)
        let dialerProof = Self.sent(try dialer.receive(acceptor.opening))
        #expect(dialerProof.count == 1)
        let answer = try acceptor.receive(try #require(dialerProof.first))
        #expect(answer.last == .established(dialer.local))
        let acceptorProof = try #require(Self.sent(answer).first)
        #expect(try dialer.receive(acceptorProof) == [.established(acceptor.local)])
        #expect(dialer.established?.node == "n2" && acceptor.established?.generation == 7)
    }

    /// A proof made with another secret is refused, and the acceptor never sends one of its own to that peer.
    @Test func aWrongSecretIsRefused() throws {
        var (dialer, acceptor) = Self.pair(dialerSecret: Self.otherSecret)
        _ = try acceptor.receive(dialer.opening)
        let proof = try #require(Self.sent(try dialer.receive(acceptor.opening)).first)
        Self.expectRefusal(.authenticationFailed) { () throws(PeerFrameError) in _ = try acceptor.receive(proof) }
        // A refused handshake stays refused.
        Self.expectRefusal(.authenticationFailed) { () throws(PeerFrameError) in _ = try acceptor.receive(proof) }
    }

    /// A proof seen on one connection is worthless on the next, whose acceptor chose a fresh nonce.
    @Test func aReplayedProofIsRefused() throws {
        var (dialer, acceptor) = Self.pair()
        _ = try acceptor.receive(dialer.opening)
        let proof = try #require(Self.sent(try dialer.receive(acceptor.opening)).first)
        var next = PeerHandshake(role: .acceptor, local: Self.hello("n2"), secret: Self.secret)
        _ = try next.receive(dialer.opening)
        Self.expectRefusal(.authenticationFailed) { () throws(PeerFrameError) in _ = try next.receive(proof) }
    }

    /// A proof over the two nonces in the other order (the hellos' roles swapped) is refused, and so is the
    /// acceptor's own kind of proof reflected back at it.
    @Test func swappedNoncesOrAReflectedProofAreRefused() throws {
        var (dialer, acceptor) = Self.pair()
        _ = try acceptor.receive(dialer.opening)
        _ = try dialer.receive(acceptor.opening)
        let key = Self.secret.keys[0]
        let swapped = PeerProof(key: key, sender: .dialer, dialer: acceptor.local, acceptor: dialer.local)
        var first = acceptor
        Self.expectRefusal(.authenticationFailed) { () throws(PeerFrameError) in _ = try first.receive(swapped.frame) }
        let reflected = PeerProof(key: key, sender: .acceptor, dialer: dialer.local, acceptor: acceptor.local)
        Self.expectRefusal(.authenticationFailed) { () throws(PeerFrameError) in
            _ = try acceptor.receive(reflected.frame)
        }
    }

    /// A hello of another cluster is refused before any proof is made.
    @Test func anotherClusterIsRefused() throws {
        var (_, acceptor) = Self.pair()
        Self.expectRefusal(.clusterMismatch) { () throws(PeerFrameError) in
            _ = try acceptor.receive(Self.hello("n1", cluster: "c2").frame)
        }
        var dialer = PeerHandshake(role: .dialer, local: Self.hello("n1"), secret: Self.secret)
        Self.expectRefusal(.clusterMismatch) { () throws(PeerFrameError) in
            _ = try dialer.receive(Self.hello("n2", cluster: "c2").frame)
        }
    }

    /// Any other frame before the hello, or before the proof, is refused.
    @Test func aFrameBeforeTheProofIsRefused() throws {
        let (dialer, fresh) = Self.pair()
        var early = fresh
        Self.expectRefusal(.unexpectedFrame) { () throws(PeerFrameError) in
            _ = try early.receive(PeerFrame(kind: 2, payload: [1]))
        }
        var acceptor = fresh
        _ = try acceptor.receive(dialer.opening)
        Self.expectRefusal(.unexpectedFrame) { () throws(PeerFrameError) in
            _ = try acceptor.receive(PeerFrame(kind: 3, payload: [1, 2]))
        }
    }

    /// A genuine proof made for one node id does not pass for another's hello with the same nonce.
    @Test func aProofForAnotherNodeIsRefused() throws {
        var (dialer, acceptor) = Self.pair()
        var other = acceptor
        _ = try acceptor.receive(dialer.opening)
        let proof = try #require(Self.sent(try dialer.receive(acceptor.opening)).first)
        let impostor = PeerHello(purpose: .link, cluster: "c1", node: "n0", generation: 7, nonce: dialer.local.nonce)
        _ = try other.receive(impostor.frame)
        Self.expectRefusal(.authenticationFailed) { () throws(PeerFrameError) in _ = try other.receive(proof) }
    }

    /// A dialer refuses a node other than the one it dialed, and a hello that carries its own nonce back.
    @Test func aDialerRefusesTheWrongNodeOrItsOwnHello() throws {
        var dialer = Self.pair().dialer
        var echoed = dialer
        Self.expectRefusal(.unexpectedNode) { () throws(PeerFrameError) in
            _ = try dialer.receive(Self.hello("n3").frame)
        }
        Self.expectRefusal(.unexpectedNode) { () throws(PeerFrameError) in
            _ = try echoed.receive(echoed.opening)
        }
    }

    /// During a rotation a node that accepts the old and the new key establishes with one still signing with the
    /// old; a joining node (which does not know the cluster's name) establishes with any member.
    @Test func rotationAndJoining() throws {
        let rotating = Self.secret("the new cluster secret, 32 bytes long", "the cluster secret, thirty-two bytes+")
        var (dialer, acceptor) = Self.pair(acceptorSecret: rotating)
        _ = try acceptor.receive(dialer.opening)
        let proof = try #require(Self.sent(try dialer.receive(acceptor.opening)).first)
        #expect(try acceptor.receive(proof).last == .established(dialer.local))

        var joiner = PeerHandshake(
            role: .dialer, local: Self.hello("n9", cluster: "", purpose: .join), secret: Self.secret)
        var member = PeerHandshake(role: .acceptor, local: Self.hello("n1"), secret: Self.secret)
        _ = try member.receive(joiner.opening)
        let joinProof = try #require(Self.sent(try joiner.receive(member.opening)).first)
        let answer = try member.receive(joinProof)
        #expect(member.established?.purpose == .join)
        #expect(try joiner.receive(try #require(Self.sent(answer).first)) == [.established(member.local)])
    }

    /// Hellos of version 1 are refused by version, and a hello's nonce must have 16 to 64 bytes.
    @Test func helloVersionAndNonceAreChecked() throws {
        Self.expectRefusal(.versionMismatch) { () throws(PeerFrameError) in
            _ = try PeerHello(decoding: PeerHello(version: 1, cluster: "c1", node: "n1", nonce: [1]).frame)
        }
        Self.expectRefusal(.malformedHello) { () throws(PeerFrameError) in
            _ = try PeerHello(decoding: PeerHello(cluster: "c1", node: "n1", nonce: [1, 2, 3], release: nil).frame)
        }
        let hello = Self.hello("n1")
        #expect(try PeerHello(decoding: hello.frame) == hello)
    }
}
