import HearthCore
import HearthNet
import HearthSystem
import Testing

/// The upgrade rule in the handshake: each hello carries its sender's release (where release 0.1.0, which reads
/// hellos of protocol 2 only and nothing after the nonce field, still reads it), adjacent releases establish, and a
/// too-old node is refused at both ends with both releases named.
@Suite struct PeerReleaseHandshakeTests {
    static let secret = PeerHandshakeTests.secret

    static func release(_ text: String) -> HearthRelease {
        guard let release = HearthRelease(parsing: text) else { fatalError("\(text) is not a release") }
        return release
    }

    static func tag(_ release: String, accepting minimum: String? = nil) -> PeerReleaseTag {
        let release = Self.release(release)
        return PeerReleaseTag(
            release: release, minimumPeer: minimum.map(Self.release) ?? ReleaseRule.oldestPeer(of: release))
    }

    static func hello(_ node: String, _ release: PeerReleaseTag?) -> PeerHello {
        PeerHello(cluster: "c1", node: node, generation: 7, nonce: PeerHello.freshNonce(), release: release)
    }

    /// Runs a whole handshake between a dialer `n1` and an acceptor `n2`; returns each side's refusal, if any.
    static func connect(
        dialer dialerRelease: PeerReleaseTag?, acceptor acceptorRelease: PeerReleaseTag?
    ) -> (dialer: PeerFrameError?, acceptor: PeerFrameError?) {
        var dialer = PeerHandshake(
            role: .dialer, local: Self.hello("n1", dialerRelease), secret: Self.secret, expectedPeer: "n2")
        var acceptor = PeerHandshake(role: .acceptor, local: Self.hello("n2", acceptorRelease), secret: Self.secret)
        var dialerError: PeerFrameError?
        var acceptorError: PeerFrameError?
        do throws(PeerFrameError) {
            _ = try acceptor.receive(dialer.opening)
        } catch {
            acceptorError = error
        }
        do throws(PeerFrameError) {
            let proof = PeerHandshakeTests.sent(try dialer.receive(acceptor.opening))
            guard acceptorError == nil, let proof = proof.first else { return (nil, acceptorError) }
            let answer = PeerHandshakeTests.sent(try acceptor.receive(proof))
            if let last = answer.first { _ = try dialer.receive(last) }
        } catch {
            dialerError = error
        }
        return (dialerError, acceptorError)
    }

    /// A tagged hello round-trips with its release, and a hello of release 0.1.0 (a bare 32-byte nonce) reads as
    /// that release accepting any peer of its protocol.
    @Test func theTagRoundTripsAndAnUntaggedHelloIsTheFirstRelease() throws {
        let tagged = Self.hello("n1", Self.tag("0.2.0"))
        let decoded = try PeerHello(decoding: tagged.frame)
        #expect(decoded == tagged)
        #expect(decoded.nonce.count == PeerHello.nonceSize)
        #expect(decoded.release == Self.tag("0.2.0", accepting: "0.1.0"))
        let old = try PeerHello(decoding: Self.hello("n1", nil).frame)
        #expect(old.tag == nil)
        #expect(old.release == PeerReleaseTag(release: Self.release("0.1.0"), minimumPeer: Self.release("0.1.0")))
        #expect(PeerHello(cluster: "c", node: "n", nonce: []).release.release == HearthVersion.current)
    }

    /// Release 0.1.0's reading of a hello (peer protocol exactly 2; purpose, cluster, node, generation, a nonce of 16
    /// to 64 bytes, and nothing after it) accepts this release's hello, so 0.1.0 and this release can meet.
    @Test func releaseZeroOneReadsThisReleasesHello() throws {
        var reader = BinaryReader(bytes: Self.hello("n1", .current).frame.payload)
        #expect(try reader.readBytes(count: 4) == Array("HRTH".utf8))
        #expect(try reader.readUInt16() == 2)
        #expect(try reader.readUInt8() == PeerHello.Purpose.link.rawValue)
        #expect(try reader.readString() == "c1")
        #expect(try reader.readString() == "n1")
        #expect(try reader.readUInt64() == 7)
        #expect((16...64).contains(try reader.readLengthPrefixedBytes().count))
        #expect(reader.isAtEnd)
    }

    /// Adjacent minor releases establish both ways, and this release establishes with a 0.2.0 hello.
    @Test func adjacentReleasesEstablish() {
        for (dialer, acceptor) in [
            (Self.tag("0.2.0"), Self.tag("0.1.0")), (Self.tag("0.1.0"), Self.tag("0.2.0")),
            (PeerReleaseTag.current, Self.tag("0.2.0")), (Self.tag("0.2.0"), PeerReleaseTag.current),
        ] {
            let (dialerError, acceptorError) = Self.connect(dialer: dialer, acceptor: acceptor)
            #expect(dialerError == nil && acceptorError == nil, "\(String(describing: dialerError ?? acceptorError))")
        }
    }

    /// A node two minor releases behind is refused by both sides before any proof: the newer side names the old
    /// node and both releases; the older side says to upgrade itself, naming both releases.
    @Test func aTooOldNodeIsRefusedAtBothEndsNamingBothReleases() throws {
        let (dialerError, acceptorError) = Self.connect(dialer: Self.tag("0.1.0"), acceptor: Self.tag("0.3.0"))
        let newer = try #require(acceptorError)
        #expect(newer.code == .releaseIncompatible)
        #expect(
            newer.message.contains("Node n1 runs hearth 0.1.0; this node runs hearth 0.3.0 and needs at least 0.2.0"))
        let older = try #require(dialerError)
        #expect(older.code == .releaseIncompatible)
        #expect(
            older.message.contains(
                "This node runs hearth 0.1.0; node n2 runs hearth 0.3.0 and the cluster needs at least 0.2.0 — "
                    + "upgrade this node"))
    }

    /// A member whose floor was raised to its own release refuses a 0.1.0 node, though 0.1.0 would accept it.
    @Test func aRaisedFloorRefusesTheOldRelease() throws {
        let (_, acceptorError) = Self.connect(dialer: nil, acceptor: Self.tag("0.2.0", accepting: "0.2.0"))
        let error = try #require(acceptorError)
        #expect(error.code == .releaseIncompatible)
        #expect(error.message.contains("runs hearth 0.1.0") && error.message.contains("needs at least 0.2.0"))
    }
}
