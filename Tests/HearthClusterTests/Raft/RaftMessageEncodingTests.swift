import HearthCluster
import HearthCore
import HearthTestKit
import Testing

/// The binary codec of messages, entries and hard state: random values round-trip, and malformed bytes throw.
@Suite struct RaftMessageEncodingTests {
    private func randomBytes(_ random: inout SeededRandom, max: Int = 12) -> [UInt8] {
        (0..<Int.random(in: 0...max, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    private func randomNode(_ random: inout SeededRandom) -> NodeID {
        NodeID("n\(Int.random(in: 1...9, using: &random))")
    }

    private func randomEntry(_ random: inout SeededRandom) -> RaftEntry {
        let payload: RaftEntry.Payload
        switch Int.random(in: 0...2, using: &random) {
        case 0: payload = .noop
        case 1: payload = .command(self.randomBytes(&random))
        default:
            payload = .membership(
                RaftMembership(voters: [self.randomNode(&random), "n1"], learners: [self.randomNode(&random)])
            )
        }
        return RaftEntry(index: random.next(), term: random.next(), payload: payload)
    }

    private func randomMessage(_ random: inout SeededRandom) -> RaftMessage {
        let u = { (random: inout SeededRandom) in UInt64.random(in: 0...1_000_000, using: &random) }
        let kinds: [RaftMessage.Kind] = [
            .append(
                prevIndex: u(&random),
                prevTerm: u(&random),
                entries: (0..<Int.random(in: 0...4, using: &random)).map { _ in self.randomEntry(&random) },
                commit: u(&random)
            ),
            .appendAccepted(matchIndex: u(&random)),
            .appendRejected(rejectedIndex: u(&random), hintIndex: u(&random), hintTerm: u(&random)),
            .vote(lastIndex: u(&random), lastTerm: u(&random), transfer: Bool.random(using: &random)),
            .voteResponse(granted: Bool.random(using: &random)),
            .preVote(lastIndex: u(&random), lastTerm: u(&random)),
            .preVoteResponse(granted: Bool.random(using: &random)),
            .heartbeat(commit: u(&random), context: self.randomBytes(&random)),
            .heartbeatResponse(context: self.randomBytes(&random)),
            .installSnapshot(
                RaftSnapshot(
                    metadata: RaftSnapshotMetadata(
                        index: u(&random),
                        term: u(&random),
                        membership: RaftMembership(voters: [self.randomNode(&random)])
                    ),
                    data: self.randomBytes(&random, max: 64)
                )
            ),
            .timeoutNow,
            .readIndex(context: self.randomBytes(&random)),
            .readIndexResponse(index: u(&random), context: self.randomBytes(&random)),
        ]
        return RaftMessage(
            group: RaftGroupID(UInt32.random(in: 0...100, using: &random)),
            from: self.randomNode(&random),
            to: self.randomNode(&random),
            term: u(&random),
            kind: kinds[Int.random(in: 0..<kinds.count, using: &random)]
        )
    }

    @Test func randomMessagesRoundTrip() throws {
        var random = SeededRandom(seed: 2024)
        for _ in 0..<2_000 {
            let message = self.randomMessage(&random)
            #expect(try RaftMessage(decoding: message.encoded()) == message)
        }
    }

    /// Every strict prefix of a valid message, and random corruptions, throw instead of trapping.
    @Test func malformedBytesThrow() {
        var random = SeededRandom(seed: 77)
        for _ in 0..<300 {
            let bytes = self.randomMessage(&random).encoded()
            for length in 0..<bytes.count {
                #expect(throws: BinaryDecodingError.self) { try RaftMessage(decoding: Array(bytes[..<length])) }
            }
            var corrupted = bytes
            corrupted[Int.random(in: 0..<corrupted.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
            _ = try? RaftMessage(decoding: corrupted)
            #expect(throws: BinaryDecodingError.self) { try RaftMessage(decoding: bytes + [0]) }
        }
    }

    @Test func entriesAndHardStateRoundTrip() throws {
        var random = SeededRandom(seed: 5)
        for _ in 0..<500 {
            let entry = self.randomEntry(&random)
            let hardState = RaftHardState(
                term: random.next(),
                votedFor: Bool.random(using: &random) ? self.randomNode(&random) : nil,
                commit: random.next()
            )
            let metadata = RaftSnapshotMetadata(
                index: random.next(), term: 3, membership: RaftMembership(voters: ["a", "b"]))
            var bytes: [UInt8] = []
            entry.encode(to: &bytes)
            hardState.encode(to: &bytes)
            metadata.encode(to: &bytes)
            var reader = BinaryReader(bytes: bytes)
            #expect(try RaftEntry(from: &reader) == entry)
            #expect(try RaftHardState(from: &reader) == hardState)
            #expect(try RaftSnapshotMetadata(from: &reader) == metadata)
            #expect(reader.isAtEnd)
        }
    }
}
