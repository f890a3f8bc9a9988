import HearthCluster
import HearthCore
import HearthNet
import HearthReplication
import HearthServer
import HearthTestKit

/// What a peer port reads: the frame stream with its hello, and the payload of every frame kind.
extension FuzzTargets {
    /// A peer connection's bytes as the accepting node reads them: frames however the reads split them (same
    /// frames either way), the handshake (hello and proof, refused without the cluster's secret), then each frame's
    /// payload decoded by its kind. Inputs that keep a valid handshake reach the payloads; the rest test refusals.
    static let peerFrames = FuzzTarget(
        name: "peer-frames", summary: "peer port streams: frame lengths and kinds, the handshake, then any payload",
        corpus: [
            Self.dialerHandshake
                + Self.peerPayloadSamples.flatMap { PeerFrame(kind: $0[0], payload: Array($0.dropFirst())).encoded },
            Self.dialerHandshake + PeerFrame(kind: 9, payload: []).encoded,
        ],
        dictionary: [[0, 0, 0, 0], [0xFF, 0xFF, 0xFF, 0x7F], [0, 0, 0, 1], [0x05, 0, 0, 0], Array("HRTH".utf8)]
            + [Array("HRPF".utf8)] + PeerFrameKind.allCases.map { [$0.rawValue] }
    ) { input throws(FuzzViolation) in
        let whole = Self.peerFrames([input[...]])
        let split = Self.peerFrames(Self.pieces(input))
        try FuzzViolation.check(
            whole.frames == split.frames && whole.error == split.error,
            "fed whole: \(whole.frames.count) frames, \(whole.error ?? "no error"); in pieces: \(split.frames.count) "
                + "frames, \(split.error ?? "no error")")
        guard let secret = Self.clusterSecret else {
            throw FuzzViolation("a cluster secret of the minimum length is refused")
        }
        var handshake = PeerHandshake(role: .acceptor, local: Self.acceptorHello, secret: secret)
        var frames = whole.frames[...]
        while handshake.established == nil, let frame = frames.popFirst() {
            guard (try? handshake.receive(frame)) != nil else { return false }
        }
        guard let peer = handshake.established else { return false }
        let again = try? PeerHello(decoding: peer.frame)
        try FuzzViolation.check(again == peer, "hello \(peer) does not round-trip")
        for frame in frames { _ = try Self.decodePeerPayload(kind: frame.kind, frame.payload) }
        return true
    }

    /// The cluster secret both sides of the fuzzed connection hold.
    private static let clusterSecret = PeerClusterSecret(
        keys: [Array(repeating: 0x5A, count: PeerClusterSecret.minimumKeyLength)])

    /// The accepting node's hello, with a fixed nonce so a corpus stream's proof stays valid.
    private static let acceptorHello = PeerHello(
        cluster: "hearth", node: "n2", generation: 1, nonce: Array(repeating: 2, count: PeerHello.nonceSize))

    /// A dialing node's hello and proof for `acceptorHello`, as the first bytes of its connection.
    private static let dialerHandshake: [UInt8] = {
        let hello = PeerHello(
            cluster: "hearth", node: "n1", generation: 1, nonce: Array(repeating: 1, count: PeerHello.nonceSize))
        guard let secret = Self.clusterSecret else { return [] }
        var dialer = PeerHandshake(role: .dialer, local: hello, secret: secret)
        var bytes = dialer.opening.encoded
        for case .send(let frame) in (try? dialer.receive(Self.acceptorHello.frame)) ?? [] { bytes += frame.encoded }
        return bytes
    }()

    /// The frames `pieces` make, and the decoder's error's code if it failed.
    private static func peerFrames(_ pieces: [ArraySlice<UInt8>]) -> (frames: [PeerFrame], error: String?) {
        var decoder = PeerFrameDecoder(maximumPayloadSize: 64 * 1024)
        var frames: [PeerFrame] = []
        for piece in pieces {
            decoder.append(piece)
            do {
                while let frame = try decoder.next() { frames.append(frame) }
            } catch {
                return (frames, "\(error.code)")
            }
        }
        return (frames, nil)
    }

    /// One frame's payload after its kind byte: SWIM, Raft, shard calls and replies, snapshot transfers, joins and
    /// their replies, and the member-list changes Raft entries carry. Whatever decodes re-encodes to the same value.
    static let peerPayloads = FuzzTarget(
        name: "peer-payloads",
        summary: "peer frame payloads: SWIM, Raft, shard calls/replies, snapshots, joins, members",
        corpus: Self.peerPayloadSamples,
        dictionary: [[0, 0, 0, 0], [0xFF, 0xFF, 0xFF, 0xFF], [1], [2], [0xFF, 0xFF], Array("n1".utf8)]
    ) { input throws(FuzzViolation) in
        guard let kind = input.first else { return false }
        return try Self.decodePeerPayload(kind: kind, Array(input.dropFirst()))
    }

    /// Member-list payloads travel inside Raft entries, not as a frame kind of their own: these bytes name them here.
    private static let memberListKind: UInt8 = 100
    private static let memberChangeKind: UInt8 = 101

    /// Decodes `payload` as a frame of `kind` would be, checks that a decoded value survives its encoding, and says
    /// whether it decoded.
    private static func decodePeerPayload(kind: UInt8, _ payload: [UInt8]) throws(FuzzViolation) -> Bool {
        switch kind {
        case PeerFrameKind.membership.rawValue:
            return try Self.roundTrip(payload, SWIMMessage.init(decoding:), { $0.encoded() })
        case PeerFrameKind.raft.rawValue:
            return try Self.roundTrip(payload, RaftMessage.init(decoding:), { $0.encoded() })
        case PeerFrameKind.shardCall.rawValue:
            return try Self.reencodes(payload, { bytes throws in try ShardCall(decoding: bytes).encoded() })
        case PeerFrameKind.shardReply.rawValue:
            return try Self.reencodes(payload, { bytes throws in try ShardReply(decoding: bytes).encoded() })
        case PeerFrameKind.raftSnapshot.rawValue:
            return try Self.roundTrip(payload, SnapshotTransferFrame.init(decoding:), { $0.encoded() })
        case PeerFrameKind.join.rawValue:
            let request = try Self.roundTrip(payload, JoinRequest.init(decoding:), { $0.encoded() })
            return try Self.roundTrip(payload, JoinReply.init(decoding:), { $0.encoded() }) || request
        case Self.memberListKind:
            return try Self.roundTrip(payload, MemberList.init(decoding:), { $0.encoded() })
        case Self.memberChangeKind:
            return try Self.roundTrip(payload, MemberChange.init(decoding:), { $0.encoded() })
        default:
            return false
        }
    }

    /// When `decode` takes `bytes`, the value's encoding decodes to an equal value; says whether `bytes` decoded.
    private static func roundTrip<Value: Equatable>(
        _ bytes: [UInt8], _ decode: ([UInt8]) throws -> Value, _ encode: (Value) -> [UInt8]
    ) throws(FuzzViolation) -> Bool {
        guard let value = try? decode(bytes) else { return false }
        let encoded = encode(value)
        guard let again = try? decode(encoded) else {
            throw FuzzViolation("\(value) decodes from \(bytes), but not from its own encoding \(encoded)")
        }
        try FuzzViolation.check(again == value, "\(value) re-encodes as \(encoded), which decodes to \(again)")
        return true
    }

    /// For types without equality: when `bytes` decode, re-encoding is stable (decode ∘ encode is the identity on
    /// encodings); says whether `bytes` decoded.
    private static func reencodes(
        _ bytes: [UInt8], _ decodeAndEncode: ([UInt8]) throws -> [UInt8]
    ) throws(FuzzViolation) -> Bool {
        guard let encoded = try? decodeAndEncode(bytes) else { return false }
        guard let again = try? decodeAndEncode(encoded) else {
            throw FuzzViolation("\(bytes) decode, but their re-encoding \(encoded) does not")
        }
        try FuzzViolation.check(again == encoded, "\(encoded) re-encodes as \(again)")
        return true
    }

    /// One valid payload of each kind, its kind byte first.
    static let peerPayloadSamples: [[UInt8]] = {
        let node = ClusterConfiguration.Node(id: "n2", host: "10.0.0.2", httpPort: 9000, peerPort: 9100)
        let member = SWIMMember(
            id: "n1", address: SWIMAddress(host: "10.0.0.1", peerPort: 9101, httpPort: 9001), generation: 7,
            incarnation: 2, status: .suspect(suspectedBy: ["n3"]))
        let membership = RaftMembership(voters: ["n1", "n2", "n3"], learners: ["n4"])
        let append = RaftMessage(
            group: RaftGroupID(3), from: "n1", to: "n2", term: 5,
            kind: .append(
                prevIndex: 9, prevTerm: 4,
                entries: [
                    RaftEntry(index: 10, term: 5, payload: .command([1, 2, 3])),
                    RaftEntry(index: 11, term: 5, payload: .membership(membership)),
                    RaftEntry(index: 12, term: 5, payload: .noop),
                ], commit: 9))
        let snapshot = RaftMessage(
            group: RaftGroupID(1), from: "n1", to: "n3", term: 2,
            kind: .installSnapshot(
                RaftSnapshot(
                    metadata: RaftSnapshotMetadata(index: 40, term: 2, membership: membership), data: [9, 9])))
        let members = MemberList(
            members: [MemberList.Member(node: node, status: .active)], removed: ["n9": 3], replicationFactor: 3)
        let transaction: [UInt8] = [0x42, 0, 0, 0, 0, 0, 0xED, 0xFE]
        let call: [UInt8] = [7, 0, 0, 0, 0, 0, 0, 0, 0x01, 0x02]
        return [
            [PeerFrameKind.membership.rawValue]
                + SWIMMessage.ping(
                    SWIMMessage.Ping(origin: member, sequence: 3, wantsFullState: true, gossip: [member])
                )
                .encoded(),
            [PeerFrameKind.raft.rawValue] + append.encoded(),
            [PeerFrameKind.raft.rawValue]
                + RaftMessage(
                    group: RaftGroupID(0), from: "n2", to: "n1", term: 9,
                    kind: .heartbeat(commit: 3, context: [1])
                ).encoded(),
            [PeerFrameKind.raftSnapshot.rawValue] + SnapshotTransferFrame.offer(snapshot, total: 1 << 20).encoded(),
            [PeerFrameKind.raftSnapshot.rawValue]
                + SnapshotTransferFrame.chunk(group: RaftGroupID(1), index: 40, term: 2, offset: 8, bytes: [1, 2])
                .encoded(),
            [PeerFrameKind.join.rawValue] + JoinRequest(node: node).encoded(),
            [PeerFrameKind.join.rawValue] + JoinReply.redirect(host: "10.0.0.1", peerPort: 9101).encoded(),
            [Self.memberListKind] + members.encoded(),
            [Self.memberChangeKind] + MemberChange.add(node).encoded(),
            [PeerFrameKind.shardCall.rawValue] + call + [2] + transaction + [3, 0] + Array("app".utf8) + [1, 0, 0, 0]
                + [4, 0] + Array("/a/b".utf8),
            [PeerFrameKind.shardCall.rawValue] + call + [6] + transaction + [1],
            [PeerFrameKind.shardCall.rawValue] + call + [9, 2, 0, 0, 0] + transaction + transaction,
            [PeerFrameKind.shardReply.rawValue] + call.prefix(8) + [7, 1, 2, 0] + Array("n3".utf8),
            [PeerFrameKind.shardReply.rawValue] + call.prefix(8) + [9, 1, 1, 2, 0, 5, 0, 0, 0, 0, 0, 0, 0]
                + [6, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0],
        ]
    }()
}
