import HearthCluster
import HearthCore
import Testing

/// A large snapshot moves as a transfer the follower pulls one chunk at a time: transcripts of the leader's and the
/// follower's sides, a repeated offer, a lost chunk, a newer snapshot replacing the one being pulled, and the frame
/// codec.
@Suite struct SnapshotTransfersTests {
    static let group = RaftGroupID(2)

    private static func message(index: UInt64, data: [UInt8]) -> RaftMessage {
        let metadata = RaftSnapshotMetadata(index: index, term: 3, membership: RaftMembership(voters: ["n1", "n2"]))
        return RaftMessage(
            group: Self.group, from: "n1", to: "n2", term: 3,
            kind: .installSnapshot(RaftSnapshot(metadata: metadata, data: data)))
    }

    /// Runs the frames each side sends through the other until nothing is left; returns what the follower delivered.
    private static func exchange(
        _ first: SnapshotTransferFrame, leader: inout SnapshotTransfers, follower: inout SnapshotTransfers
    ) -> [RaftMessage] {
        var toFollower = [first]
        var delivered: [RaftMessage] = []
        while let frame = toFollower.popLast() {
            for action in follower.receive(frame, from: "n1") {
                switch action {
                case .deliver(let message): delivered.append(message)
                case .send(let request, _):
                    for reply in leader.receive(request, from: "n2") {
                        if case .send(let chunk, _) = reply { toFollower.append(chunk) }
                    }
                }
            }
        }
        return delivered
    }

    @Test func aSmallSnapshotGoesWholeAndALargeOneInChunks() throws {
        var leader = SnapshotTransfers(chunkBytes: 4)
        var follower = SnapshotTransfers(chunkBytes: 4)
        #expect(leader.send(Self.message(index: 5, data: [1, 2, 3])) == nil)
        let large = Self.message(index: 9, data: Array(0..<10))
        let offerFrame = leader.send(large)
        let offer = try #require(offerFrame)
        guard case .offer(let offered, total: 10) = offer else {
            Issue.record("not an offer: \(offer)")
            return
        }
        #expect(offered.kind == .installSnapshot(RaftSnapshot(metadata: offered.snapshotMetadata, data: [])))
        #expect(Self.exchange(offer, leader: &leader, follower: &follower) == [large])
        #expect(!follower.isPulling(group: Self.group, from: "n1"))
        // The follower said it had everything: the leader forgot the data.
        #expect(
            leader.receive(.request(group: Self.group, index: 9, term: 3, offset: 0), from: "n2")
                == [.send(.gone(group: Self.group, index: 9, term: 3), to: "n2")])
    }

    @Test func aRepeatedOfferChangesNothingAndALostChunkIsAskedForAgain() throws {
        var leader = SnapshotTransfers(chunkBytes: 4)
        var follower = SnapshotTransfers(chunkBytes: 4)
        let offerFrame = leader.send(Self.message(index: 9, data: Array(0..<10)))
        let offer = try #require(offerFrame)
        let first = follower.receive(offer, from: "n1")
        #expect(first == [.send(.request(group: Self.group, index: 9, term: 3, offset: 0), to: "n1")])
        #expect(follower.receive(offer, from: "n1").isEmpty, "already pulling this snapshot")
        // The chunk the leader sent is lost; after `retryTicks` the follower asks again.
        for _ in 1..<SnapshotTransfers.retryTicks { #expect(follower.tick().isEmpty) }
        #expect(follower.tick() == first)
        for _ in 0..<(SnapshotTransfers.retryTicks * SnapshotTransfers.maximumRetries) { _ = follower.tick() }
        #expect(!follower.isPulling(group: Self.group, from: "n1"), "given up after too many unanswered requests")
    }

    @Test func aNewerSnapshotReplacesTheOneBeingPulled() throws {
        var leader = SnapshotTransfers(chunkBytes: 4)
        var follower = SnapshotTransfers(chunkBytes: 4)
        let olderFrame = leader.send(Self.message(index: 9, data: Array(0..<10)))
        let older = try #require(olderFrame)
        _ = follower.receive(older, from: "n1")
        let newer = Self.message(index: 12, data: Array(20..<31))
        let offerFrame = leader.send(newer)
        let offer = try #require(offerFrame)
        // A request for the replaced snapshot is answered `gone`; the follower drops that transfer.
        let gone = leader.receive(.request(group: Self.group, index: 9, term: 3, offset: 4), from: "n2")
        #expect(gone == [.send(.gone(group: Self.group, index: 9, term: 3), to: "n2")])
        _ = follower.receive(.gone(group: Self.group, index: 9, term: 3), from: "n1")
        #expect(!follower.isPulling(group: Self.group, from: "n1"))
        #expect(Self.exchange(offer, leader: &leader, follower: &follower) == [newer])
    }

    @Test func framesRoundTrip() throws {
        let frames: [SnapshotTransferFrame] = [
            .offer(Self.message(index: 9, data: []), total: 1 << 33),
            .request(group: Self.group, index: 9, term: 3, offset: 77),
            .chunk(group: Self.group, index: 9, term: 3, offset: 4, bytes: [1, 2, 3]),
            .gone(group: Self.group, index: 9, term: 3),
        ]
        for frame in frames { #expect(try SnapshotTransferFrame(decoding: frame.encoded()) == frame) }
        #expect(throws: BinaryDecodingError.self) { try SnapshotTransferFrame(decoding: [9]) }
        #expect(throws: BinaryDecodingError.self) { try SnapshotTransferFrame(decoding: frames[1].encoded() + [0]) }
    }
}

extension RaftMessage {
    /// The snapshot metadata of an `installSnapshot` message.
    fileprivate var snapshotMetadata: RaftSnapshotMetadata {
        guard case .installSnapshot(let snapshot) = self.kind else {
            preconditionFailure("not an installSnapshot message: \(self)")
        }
        return snapshot.metadata
    }
}
