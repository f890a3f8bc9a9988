/// The message schedule SHA-1 and SHA-256 share (FIPS 180-4 §5.1.1, §5.2.1): input is cut into 64-byte blocks for
/// a compression function, and the end is padded with `0x80`, zeros and the message's length in bits (big-endian).
/// Each hash keeps its own state words and hands its compression function in.
struct DigestBlocks: Sendable {
    static let blockSize = 64

    /// Input bytes that do not yet fill a block.
    private var pending: [UInt8]
    /// The total input length in bytes.
    private var length: UInt64 = 0

    init() {
        self.pending = []
        self.pending.reserveCapacity(Self.blockSize)
    }

    /// Adds `bytes`; contiguous collections (arrays, native strings' UTF-8) take a fast path.
    mutating func absorb<State>(
        _ bytes: some Sequence<UInt8>, into state: inout State,
        _ compress: (inout State, UnsafeRawBufferPointer) -> Void
    ) {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            self.absorb(UnsafeRawBufferPointer(buffer), into: &state, compress)
        }
        guard handled == nil else { return }
        for byte in bytes {
            self.pending.append(byte)
            self.length &+= 1
            if self.pending.count == Self.blockSize { self.compressPending(&state, compress) }
        }
    }

    mutating func absorb<State>(
        _ buffer: UnsafeRawBufferPointer, into state: inout State,
        _ compress: (inout State, UnsafeRawBufferPointer) -> Void
    ) {
        guard !buffer.isEmpty else { return }
        self.length &+= UInt64(buffer.count)
        var offset = 0
        if !self.pending.isEmpty {
            let taken = Swift.min(Self.blockSize - self.pending.count, buffer.count)
            self.pending.append(contentsOf: buffer[0..<taken])
            offset = taken
            guard self.pending.count == Self.blockSize else { return }
            self.compressPending(&state, compress)
        }
        while buffer.count - offset >= Self.blockSize {
            compress(&state, UnsafeRawBufferPointer(rebasing: buffer[offset..<(offset + Self.blockSize)]))
            offset += Self.blockSize
        }
        self.pending.append(contentsOf: buffer[offset...])
    }

    /// Pads the message and compresses the last block(s).
    mutating func finish<State>(_ state: inout State, _ compress: (inout State, UnsafeRawBufferPointer) -> Void) {
        let bitLength = self.length &* 8
        self.pending.append(0x80)
        if self.pending.count > Self.blockSize - 8 {
            self.pending.append(contentsOf: repeatElement(0, count: Self.blockSize - self.pending.count))
            self.compressPending(&state, compress)
        }
        self.pending.append(contentsOf: repeatElement(0, count: Self.blockSize - 8 - self.pending.count))
        for shift in stride(from: 56, through: 0, by: -8) {
            self.pending.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        self.compressPending(&state, compress)
    }

    private mutating func compressPending<State>(
        _ state: inout State, _ compress: (inout State, UnsafeRawBufferPointer) -> Void
    ) {
        self.pending.withUnsafeBytes { compress(&state, $0) }
        self.pending.removeAll(keepingCapacity: true)
    }

    /// The big-endian bytes of `words`.
    static func bytes(_ words: [UInt32]) -> [UInt8] {
        var digest: [UInt8] = []
        digest.reserveCapacity(words.count * 4)
        for word in words {
            digest.append(UInt8(truncatingIfNeeded: word >> 24))
            digest.append(UInt8(truncatingIfNeeded: word >> 16))
            digest.append(UInt8(truncatingIfNeeded: word >> 8))
            digest.append(UInt8(truncatingIfNeeded: word))
        }
        return digest
    }

    /// The 16 big-endian words of a block.
    static func word(_ block: UnsafeRawBufferPointer, _ index: Int) -> UInt32 {
        let base = index * 4
        return UInt32(block[base]) << 24 | UInt32(block[base + 1]) << 16 | UInt32(block[base + 2]) << 8
            | UInt32(block[base + 3])
    }
}

extension UInt32 {
    func rotatedLeft(by count: UInt32) -> UInt32 {
        (self << count) | (self >> (32 - count))
    }

    func rotatedRight(by count: UInt32) -> UInt32 {
        (self >> count) | (self << (32 - count))
    }
}
