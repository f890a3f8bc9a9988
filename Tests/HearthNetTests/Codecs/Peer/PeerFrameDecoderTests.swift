import HearthNet
import HearthTestKit
import Testing

@Suite struct PeerFrameDecoderTests {
    private static func frames(count: Int, seed: UInt64) -> [PeerFrame] {
        var random = SeededRandom(seed: seed)
        return (0..<count).map { index in
            let size = Int.random(in: 0...300, using: &random)
            return PeerFrame(
                kind: UInt8(1 + index % 200), payload: (0..<size).map { _ in UInt8.random(in: 0...255, using: &random) }
            )
        }
    }

    private static func decodeAll(_ decoder: inout PeerFrameDecoder) throws -> [PeerFrame] {
        var frames: [PeerFrame] = []
        while let frame = try decoder.next() { frames.append(frame) }
        return frames
    }

    /// The header is `u32` little-endian payload length, then the kind.
    @Test func encodesTheDocumentedLayout() {
        #expect(PeerFrame(kind: 7, payload: [0xAA, 0xBB]).encoded == [2, 0, 0, 0, 7, 0xAA, 0xBB])
        #expect(PeerFrame(kind: 1, payload: []).encoded == [0, 0, 0, 0, 1])
    }

    /// Many frames in one read, and the same stream cut at random points, give the same frames.
    @Test(arguments: [1, 2, 3] as [UInt64]) func decodesWhateverTheSplit(seed: UInt64) throws {
        let frames = Self.frames(count: 200, seed: seed)
        let stream = frames.flatMap(\.encoded)

        var whole = PeerFrameDecoder()
        whole.append(stream)
        #expect(try Self.decodeAll(&whole) == frames)

        var random = SeededRandom(seed: seed)
        var pieces = PeerFrameDecoder()
        var decoded: [PeerFrame] = []
        var offset = 0
        while offset < stream.count {
            let end = min(stream.count, offset + Int.random(in: 1...64, using: &random))
            pieces.append(stream[offset..<end])
            decoded += try Self.decodeAll(&pieces)
            offset = end
        }
        #expect(decoded == frames)
        #expect(pieces.bufferedByteCount == 0)

        var bytewise = PeerFrameDecoder()
        decoded = []
        for byte in stream {
            bytewise.append(CollectionOfOne(byte))
            decoded += try Self.decodeAll(&bytewise)
        }
        #expect(decoded == frames)
    }

    /// A header declaring more than the limit fails at once, before the payload arrives, and keeps failing.
    @Test func refusesFramesAboveTheLimit() throws {
        var decoder = PeerFrameDecoder(maximumPayloadSize: 10)
        decoder.append(PeerFrame(kind: 1, payload: Array(repeating: 1, count: 10)).encoded)
        #expect(try decoder.next()?.payload.count == 10)
        decoder.append([11, 0, 0, 0, 1])
        #expect(throws: PeerFrameError.self) { try decoder.next() }
        do {
            _ = try decoder.next()
            Issue.record("a failed decoder must keep failing")
        } catch {
            #expect(error.code == .frameTooLarge)
            #expect(error.message.contains("11 payload bytes"))
        }
    }
}
