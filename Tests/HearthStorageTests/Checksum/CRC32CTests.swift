import HearthStorage
import HearthTestKit
import Testing

@Suite struct CRC32CTests {
    /// The standard check value and the iSCSI (RFC 3720) vectors.
    @Test func matchesPublishedVectors() {
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
        #expect(CRC32C.checksum([UInt8]()) == 0)
        #expect(CRC32C.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
        #expect(CRC32C.checksum([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
        #expect(CRC32C.checksum((0..<32).map { UInt8($0) }) == 0x46DD_794E)
        #expect(CRC32C.checksum((0..<32).map { UInt8(31 - $0) }) == 0x113F_DB5C)
    }

    /// Slice-by-16 must agree with a bit-at-a-time reference for every length and split point.
    @Test func incrementalUpdatesMatchBitwiseReference() {
        let seed: UInt64 = 0xC0FFEE
        var random = SeededRandom(seed: seed)
        for length in 0..<300 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            let split = length == 0 ? 0 : Int.random(in: 0...length, using: &random)
            var crc = CRC32C()
            crc.update(Array(bytes[..<split]))
            crc.update(Array(bytes[split...]))
            let expected = Self.bitwise(bytes)
            #expect(crc.value == expected, "seed \(seed), length \(length), split \(split)")
            #expect(CRC32C.checksum(bytes) == expected, "seed \(seed), length \(length)")
        }
    }

    /// The slice-by-16 tables agree with the bit-at-a-time reference for every length up to 300 and every alignment
    /// of the first byte, fed in two parts (the sixteen-byte steps, the eight-byte step and the byte-at-a-time tail
    /// all meet every offset).
    @Test func theTablesAgreeWithTheBitwiseReference() {
        let seed: UInt64 = 0x5EA1_C4C
        var random = SeededRandom(seed: seed)
        let bytes = (0..<320).map { _ in UInt8.random(in: 0...255, using: &random) }
        bytes.withUnsafeBytes { all in
            for start in 0..<16 {
                for length in 0...300 {
                    let slice = UnsafeRawBufferPointer(rebasing: all[start..<(start + length)])
                    let split = length / 3
                    var crc = CRC32C()
                    crc.update(UnsafeRawBufferPointer(rebasing: slice[..<split]))
                    crc.update(UnsafeRawBufferPointer(rebasing: slice[split...]))
                    #expect(crc.value == Self.bitwise(Array(slice)), "start \(start), length \(length)")
                }
            }
        }
    }

    /// A WAL batch's worth of bytes (64 KiB and a ragged tail, fed in uneven parts) agrees with the bitwise
    /// reference: the sixteen-byte steps carry the state across many steps and across `update` calls.
    @Test func aLongBufferAgreesWithTheBitwiseReference() {
        let seed: UInt64 = 0xB16_BA7C
        var random = SeededRandom(seed: seed)
        let bytes = (0..<(65_536 + 13)).map { _ in UInt8.random(in: 0...255, using: &random) }
        var crc = CRC32C()
        var start = 0
        for part in [1, 15, 17, 4_093, 30_000] {
            crc.update(Array(bytes[start..<(start + part)]))
            start += part
        }
        crc.update(Array(bytes[start...]))
        #expect(crc.value == Self.bitwise(bytes), "seed \(seed)")
    }

    private static func bitwise(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 {
                crc = (crc & 1) == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1
            }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
