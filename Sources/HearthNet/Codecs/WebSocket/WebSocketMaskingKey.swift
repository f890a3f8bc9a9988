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
    /// are the same operation. O(n) in the range's length.
    public func apply(to bytes: inout [UInt8], in range: Range<Int>, payloadOffset offset: Int) {
        let key = (self[offset], self[offset + 1], self[offset + 2], self[offset + 3])
        bytes.withUnsafeMutableBufferPointer { buffer in
            var index = range.lowerBound
            var phase = 0
            while index < range.upperBound {
                switch phase {
                case 0: buffer[index] ^= key.0
                case 1: buffer[index] ^= key.1
                case 2: buffer[index] ^= key.2
                default: buffer[index] ^= key.3
                }
                phase = (phase + 1) & 3
                index += 1
            }
        }
    }
}
