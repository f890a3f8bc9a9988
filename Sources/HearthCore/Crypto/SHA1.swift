/// SHA-1 (FIPS 180-4), which Firebase uses for node hashes and RFC 6455 for the WebSocket handshake.
///
/// Not for security: SHA-1 is broken against collision attacks. Hearth needs it only to match the digests that
/// Firebase clients compute. Feed bytes with `update` in as many pieces as convenient, then call `finalize` once.
public struct SHA1: Sendable {
    /// The running digest words h0…h4.
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32)
    /// Input bytes that do not yet fill a 64-byte block.
    private var pending: [UInt8]
    /// The total input length in bytes.
    private var length: UInt64

    /// The size of one SHA-1 block in bytes.
    private static let blockSize = 64

    public init() {
        self.state = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)
        self.pending = []
        self.pending.reserveCapacity(Self.blockSize)
        self.length = 0
    }

    /// The 20-byte digest of `bytes`.
    public static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var hasher = SHA1()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Adds `bytes` to the message; contiguous collections (arrays, native strings' UTF-8) take a fast path.
    public mutating func update(_ bytes: some Sequence<UInt8>) {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            self.update(UnsafeRawBufferPointer(buffer))
        }
        guard handled == nil else { return }
        for byte in bytes {
            self.pending.append(byte)
            self.length &+= 1
            if self.pending.count == Self.blockSize {
                self.compressPending()
            }
        }
    }

    /// Adds the bytes in `buffer` to the message.
    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        guard !buffer.isEmpty else { return }
        self.length &+= UInt64(buffer.count)
        var offset = 0
        if !self.pending.isEmpty {
            let taken = Swift.min(Self.blockSize - self.pending.count, buffer.count)
            self.pending.append(contentsOf: buffer[0..<taken])
            offset = taken
            guard self.pending.count == Self.blockSize else { return }
            self.compressPending()
        }
        while buffer.count - offset >= Self.blockSize {
            self.compress(UnsafeRawBufferPointer(rebasing: buffer[offset..<(offset + Self.blockSize)]))
            offset += Self.blockSize
        }
        self.pending.append(contentsOf: buffer[offset...])
    }

    /// Pads the message and returns its 20-byte digest. The hasher is spent afterwards.
    public mutating func finalize() -> [UInt8] {
        let bitLength = self.length &* 8
        self.pending.append(0x80)
        if self.pending.count > Self.blockSize - 8 {
            self.pending.append(contentsOf: repeatElement(0, count: Self.blockSize - self.pending.count))
            self.compressPending()
        }
        self.pending.append(contentsOf: repeatElement(0, count: Self.blockSize - 8 - self.pending.count))
        for shift in stride(from: 56, through: 0, by: -8) {
            self.pending.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        self.compressPending()
        var digest: [UInt8] = []
        digest.reserveCapacity(20)
        for word in [self.state.0, self.state.1, self.state.2, self.state.3, self.state.4] {
            digest.append(UInt8(truncatingIfNeeded: word >> 24))
            digest.append(UInt8(truncatingIfNeeded: word >> 16))
            digest.append(UInt8(truncatingIfNeeded: word >> 8))
            digest.append(UInt8(truncatingIfNeeded: word))
        }
        return digest
    }

    /// Compresses the full `pending` block and empties it.
    private mutating func compressPending() {
        let block = self.pending
        block.withUnsafeBytes { self.compress($0) }
        self.pending.removeAll(keepingCapacity: true)
    }

    /// Runs the 80-round compression function over one 64-byte block.
    private mutating func compress(_ block: UnsafeRawBufferPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 80) { schedule in
            for index in 0..<16 {
                let base = index * 4
                schedule[index] =
                    UInt32(block[base]) << 24 | UInt32(block[base + 1]) << 16 | UInt32(block[base + 2]) << 8
                    | UInt32(block[base + 3])
            }
            for index in 16..<80 {
                let mixed = schedule[index - 3] ^ schedule[index - 8] ^ schedule[index - 14] ^ schedule[index - 16]
                schedule[index] = mixed.rotatedLeft(by: 1)
            }
            var (a, b, c, d, e) = self.state
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
            self.state = (
                self.state.0 &+ a, self.state.1 &+ b, self.state.2 &+ c, self.state.3 &+ d, self.state.4 &+ e
            )
        }
    }
}

extension UInt32 {
    /// The bits rotated left by `count` (0 < count < 32).
    fileprivate func rotatedLeft(by count: UInt32) -> UInt32 {
        (self << count) | (self >> (32 - count))
    }
}
