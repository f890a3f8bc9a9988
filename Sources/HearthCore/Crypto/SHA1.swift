/// SHA-1 (FIPS 180-4), which Firebase uses for node hashes and RFC 6455 for the WebSocket handshake.
///
/// Not for security: SHA-1 is broken against collision attacks. Hearth needs it only to match the digests that
/// Firebase clients compute. Feed bytes with `update` in as many pieces as convenient, then call `finalize` once.
public struct SHA1: Sendable {
    /// The running digest words h0…h4.
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32)
    private var blocks = DigestBlocks()

    public init() {
        self.state = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)
    }

    /// The 20-byte digest of `bytes`.
    public static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var hasher = SHA1()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Adds `bytes` to the message; contiguous collections (arrays, native strings' UTF-8) take a fast path.
    public mutating func update(_ bytes: some Sequence<UInt8>) {
        self.blocks.absorb(bytes, into: &self.state, Self.compress)
    }

    /// Adds the bytes in `buffer` to the message.
    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        self.blocks.absorb(buffer, into: &self.state, Self.compress)
    }

    /// Pads the message and returns its 20-byte digest. The hasher is spent afterwards.
    public mutating func finalize() -> [UInt8] {
        self.blocks.finish(&self.state, Self.compress)
        return DigestBlocks.bytes([self.state.0, self.state.1, self.state.2, self.state.3, self.state.4])
    }

    /// Runs the 80-round compression function over one 64-byte block.
    private static func compress(
        _ state: inout (UInt32, UInt32, UInt32, UInt32, UInt32), _ block: UnsafeRawBufferPointer
    ) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 80) { schedule in
            for index in 0..<16 { schedule[index] = DigestBlocks.word(block, index) }
            for index in 16..<80 {
                let mixed = schedule[index - 3] ^ schedule[index - 8] ^ schedule[index - 14] ^ schedule[index - 16]
                schedule[index] = mixed.rotatedLeft(by: 1)
            }
            var (a, b, c, d, e) = state
            for index in 0..<80 {
                let f: UInt32
                let k: UInt32
                switch index {
                case 0..<20:
                    f = (b & c) | (~b & d)
                    k = 0x5A82_7999
                case 20..<40:
                    f = b ^ c ^ d
                    k = 0x6ED9_EBA1
                case 40..<60:
                    f = (b & c) | (b & d) | (c & d)
                    k = 0x8F1B_BCDC
                default:
                    f = b ^ c ^ d
                    k = 0xCA62_C1D6
                }
                let temporary = a.rotatedLeft(by: 5) &+ f &+ e &+ k &+ schedule[index]
                e = d
                d = c
                c = b.rotatedLeft(by: 30)
                b = a
                a = temporary
            }
            state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e)
        }
    }
}
