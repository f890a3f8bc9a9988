import HearthTestKit
import Testing

@testable import HearthStorage

/// The on-disk frame (`[u32 length][u32 CRC-32C of lsn ‖ payload][u64 lsn][payload]`): frames queued unsealed and
/// sealed in place by the writer are byte for byte the frames the log always wrote, so logs written before read
/// unchanged and logs written now read with older builds.
@Suite struct WALFrameTests {
    /// Records 7 ("hearth") and 8 (empty), framed; the checksums were computed bit by bit, outside this code.
    private static let golden: [UInt8] = [
        0x06, 0x00, 0x00, 0x00, 0x26, 0x7B, 0x2E, 0x62, 0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x68, 0x65, 0x61, 0x72, 0x74, 0x68,
        0x00, 0x00, 0x00, 0x00, 0x50, 0xB6, 0x13, 0xCE, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    ]

    /// `encode` writes the golden frames.
    @Test func encodeWritesTheKnownFrames() {
        var bytes: [UInt8] = []
        WALFrame.encode(lsn: 7, payload: Array("hearth".utf8), into: &bytes)
        WALFrame.encode(lsn: 8, payload: [], into: &bytes)
        #expect(bytes == Self.golden)
    }

    /// Frames appended unsealed, then sealed one after another in the same buffer, are the golden frames.
    @Test func unsealedFramesSealedInPlaceAreTheKnownFrames() {
        var bytes: [UInt8] = []
        Array("hearth".utf8).withUnsafeBytes { WALFrame.appendUnsealed(lsn: 7, payload: $0, into: &bytes) }
        [UInt8]().withUnsafeBytes { WALFrame.appendUnsealed(lsn: 8, payload: $0, into: &bytes) }
        let ends = bytes.withUnsafeMutableBytes { frames in
            let first = WALFrame.seal(frames, at: 0)
            return [first, WALFrame.seal(frames, at: first)]
        }
        #expect(ends == [22, 38])
        #expect(bytes == Self.golden)
    }

    /// Sealed frames of random payloads decode to their LSNs and payloads, and one flipped byte makes a frame
    /// corrupt: the checksum covers what the writer sealed.
    @Test func sealedFramesDecodeAndDamageIsDetected() {
        var random = SeededRandom(seed: 0x5EA1)
        var bytes: [UInt8] = []
        var payloads: [[UInt8]] = []
        for lsn in 1...50 {
            let payload = (0..<Int.random(in: 0..<300, using: &random)).map { _ in
                UInt8.random(in: 0...255, using: &random)
            }
            payloads.append(payload)
            payload.withUnsafeBytes { WALFrame.appendUnsealed(lsn: UInt64(lsn), payload: $0, into: &bytes) }
        }
        bytes.withUnsafeMutableBytes { frames in
            var offset = 0
            while offset < frames.count { offset = WALFrame.seal(frames, at: offset) }
        }
        var offset = 0
        for (index, payload) in payloads.enumerated() {
            guard case .record(let lsn, let range, let end) = bytes.withUnsafeBytes({ WALFrame.decode($0, at: offset) })
            else {
                Issue.record("frame \(index + 1) does not decode")
                return
            }
            #expect(lsn == UInt64(index + 1))
            #expect(Array(bytes[range]) == payload)
            offset = end
        }
        bytes[bytes.count - 1] ^= 0x01
        var damaged = 0
        while case .record(_, _, let end) = bytes.withUnsafeBytes({ WALFrame.decode($0, at: damaged) }) {
            damaged = end
        }
        #expect(bytes.withUnsafeBytes { WALFrame.decode($0, at: damaged) } == .corrupt)
    }
}
