/// The four-byte key a client XORs over every payload it sends (RFC 6455 §5.3).
///
/// Servers never mask; the parser unmasks client frames with the key from each header, and the encoder masks frames
/// when it plays the client (tests, and one day the Hearth client SDK).
public struct WebSocketMaskingKey: Sendable, Hashable {
    /// The key in wire order, most significant byte first.
    public let value: UInt32

    public init(_ value: UInt32) {
        self.value = value
    }

    /// Four bytes in wire order.
    public init(_ byte0: UInt8, _ byte1: UInt8, _ byte2: UInt8, _ byte3: UInt8) {
        self.value = UInt32(byte0) << 24 | UInt32(byte1) << 16 | UInt32(byte2) << 8 | UInt32(byte3)
    }

    /// A fresh key drawn from `generator`; real clients must use an unpredictable source.
    public init(using generator: inout some RandomNumberGenerator) {
        self.value = UInt32.random(in: UInt32.min...UInt32.max, using: &generator)
    }

    /// The key byte applied to payload byte number `index` (counting from the frame's first payload byte).
    @inline(__always)
    public subscript(index: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: self.value >> (24 - 8 * UInt32(index & 3)))
    }

    /// The key in wire order.
    public var bytes: [UInt8] {
        [self[0], self[1], self[2], self[3]]
    }

    /// XORs `bytes[range]` in place, where `range.lowerBound` is payload byte number `offset`. Masking and unmasking
    /// are the same operation. O(n) in the range's length: eight bytes at a time (the key repeated twice, turned to
    /// the range's phase), then the tail byte by byte.
    public func apply(to bytes: inout [UInt8], in range: Range<Int>, payloadOffset offset: Int) {
        bytes.withUnsafeMutableBytes { buffer in
            self.apply(to: UnsafeMutableRawBufferPointer(rebasing: buffer[range]), payloadOffset: offset)
        }
    }

    /// XORs every byte of `buffer` in place, its first byte being payload byte number `offset`.
    func apply(to buffer: UnsafeMutableRawBufferPointer, payloadOffset offset: Int) {
        guard let base = buffer.baseAddress else { return }
        // The key's bytes from the range's phase on, twice over, in memory order: XOR one unaligned word at a time.
        var pattern: UInt64 = 0
        for index in 0..<8 { pattern |= UInt64(self[offset + index]) << (8 * UInt64(index)) }
        let wordBytes = MemoryLayout<UInt64>.size
        var index = 0
        while index + wordBytes <= buffer.count {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            base.storeBytes(of: (word ^ pattern).littleEndian, toByteOffset: index, as: UInt64.self)
            index += wordBytes
        }
        while index < buffer.count {
            buffer[index] ^= self[offset + index]
            index += 1
        }
    }
}
