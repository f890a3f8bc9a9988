import HearthCluster
import HearthCore
import HearthTestKit
import Testing

@Suite struct SWIMMessageCodecTests {
    @Test func randomMessagesRoundTrip() throws {
        var random = SeededRandom(seed: 11)
        for _ in 0..<500 {
            let message = Self.randomMessage(&random)
            #expect(try SWIMMessage(decoding: message.encoded()) == message)
        }
    }

    /// Every prefix and every single-byte corruption of valid messages either decodes or throws, never traps.
    @Test func truncatedAndCorruptedBytesThrowInsteadOfTrapping() {
        var random = SeededRandom(seed: 12)
        for _ in 0..<50 {
            let bytes = Self.randomMessage(&random).encoded()
            for cut in 0..<bytes.count {
                #expect(throws: BinaryDecodingError.self) { try SWIMMessage(decoding: Array(bytes[..<cut])) }
            }
            for _ in 0..<20 {
                var corrupted = bytes
                corrupted[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                _ = try? SWIMMessage(decoding: corrupted)
            }
            #expect(throws: BinaryDecodingError.self) { try SWIMMessage(decoding: bytes + [0]) }
        }
        #expect(throws: BinaryDecodingError.self) { try SWIMMessage(decoding: [9]) }
    }

    static func randomMessage(_ random: inout SeededRandom) -> SWIMMessage {
        let sequence = random.next()
        let gossip = (0..<Int.random(in: 0...4, using: &random)).map { _ in Self.randomMember(&random) }
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            return .ping(
                SWIMMessage.Ping(
                    origin: Self.randomMember(&random),
                    sequence: sequence,
                    wantsFullState: Bool.random(using: &random),
                    gossip: gossip
                )
            )
        case 1:
            let target = NodeID("n\(Int.random(in: 0..<50, using: &random))")
            return .pingRequest(
                SWIMMessage.PingRequest(
                    origin: Self.randomMember(&random),
                    target: target,
                    sequence: sequence,
                    gossip: gossip
                )
            )
        case 2:
            return .ack(SWIMMessage.Ack(target: Self.randomMember(&random), sequence: sequence, gossip: gossip))
        default:
            return .nack(
                SWIMMessage.Nack(target: NodeID("n\(Int.random(in: 0..<50, using: &random))"), sequence: sequence))
        }
    }

    static func randomMember(_ random: inout SeededRandom) -> SWIMMember {
        let statuses: [SWIMStatus] = [
            .alive, .dead, .left, .suspect(suspectedBy: ["n1", "n2"]), .suspect(suspectedBy: []),
        ]
        return SWIMMember(
            id: NodeID("n\(Int.random(in: 0..<50, using: &random))"),
            address: SWIMAddress(
                host: "10.0.0.\(Int.random(in: 0...255, using: &random))",
                peerPort: UInt16.random(in: 1...UInt16.max, using: &random),
                httpPort: UInt16.random(in: 1...UInt16.max, using: &random)
            ),
            generation: random.next(),
            incarnation: random.next() % 1_000,
            status: statuses[Int.random(in: 0..<statuses.count, using: &random)]
        )
    }
}
