/// CRC-32C (Castagnoli), the checksum framing every WAL record and snapshot so damage is detected, never replayed.
///
/// Table-driven slice-by-16: sixteen bytes are folded per step through sixteen 256-entry tables (16 KiB, which stay
/// in the first-level cache), about twice the speed of slice-by-8's eight bytes a step without hardware instructions;
/// the last 8–15 bytes take one slice-by-8 step, the rest a byte at a time. The value is incremental: feed bytes in any number of
/// `update` calls and read `value` at the end. Reference value: "123456789" → 0xE3069283.
package struct CRC32C: Sendable {
    /// The reflected Castagnoli polynomial.
    static let polynomial: UInt32 = 0x82F6_3B78

    /// Sixteen consecutive 256-entry tables; table `k` advances a byte through `k` further zero bytes.
    static let tables: [UInt32] = Self.makeTables()

    private var state: UInt32 = 0xFFFF_FFFF

    package init() {}

    /// The checksum of everything fed so far.
    package var value: UInt32 { self.state ^ 0xFFFF_FFFF }

    /// The checksum of `bytes` alone. O(n).
    package static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc = CRC32C()
        crc.update(bytes)
        return crc.value
    }

    /// Feeds `bytes`. O(n).
    package mutating func update(_ bytes: some Sequence<UInt8>) {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            self.update(UnsafeRawBufferPointer(buffer))
        }
        if handled == nil {
            let copy = Array(bytes)
            copy.withUnsafeBytes { self.update($0) }
        }
    }

    /// Feeds the bytes of an integer in little-endian order.
    package mutating func update(littleEndian integer: UInt64) {
        withUnsafeBytes(of: integer.littleEndian) { self.update($0) }
    }

    /// Feeds raw bytes, sixteen at a time through the slice-by-16 tables. O(n).
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            return
        }
        var crc = self.state
        var index = 0
        let count = bytes.count
        Self.tables.withUnsafeBufferPointer { table in
            while count - index >= 16 {
                let first = base.loadUnaligned(fromByteOffset: index, as: UInt64.self).littleEndian
                let second = base.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self).littleEndian
                let low: UInt32 = UInt32(truncatingIfNeeded: first) ^ crc
                let upper: UInt32 =
                    Self.fold(low, through: 12, table)
                    ^ Self.fold(UInt32(truncatingIfNeeded: first >> 32), through: 8, table)
                let lower: UInt32 =
                    Self.fold(UInt32(truncatingIfNeeded: second), through: 4, table)
                    ^ Self.fold(UInt32(truncatingIfNeeded: second >> 32), through: 0, table)
                crc = upper ^ lower
                index += 16
            }
            if count - index >= 8 {
                let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self).littleEndian
                let low: UInt32 = UInt32(truncatingIfNeeded: word) ^ crc
                crc =
                    Self.fold(low, through: 4, table)
                    ^ Self.fold(UInt32(truncatingIfNeeded: word >> 32), through: 0, table)
                index += 8
            }
            while index < count {
                let byte = base.load(fromByteOffset: index, as: UInt8.self)
                crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
                index += 1
            }
        }
        self.state = crc
    }

    /// The four bytes of `word` (first byte lowest) advanced through `skip` + 3, + 2, + 1 and + 0 further zero bytes
    /// and combined: one four-byte column of a slicing step.
    @inline(__always)
    private static func fold(_ word: UInt32, through skip: Int, _ table: UnsafeBufferPointer<UInt32>) -> UInt32 {
        let first: UInt32 = table[(skip + 3) &* 256 &+ Int(word & 0xFF)]
        let second: UInt32 = table[(skip + 2) &* 256 &+ Int((word >> 8) & 0xFF)]
        let third: UInt32 = table[(skip + 1) &* 256 &+ Int((word >> 16) & 0xFF)]
        let fourth: UInt32 = table[skip &* 256 &+ Int(word >> 24)]
        return first ^ second ^ third ^ fourth
    }

    private static func makeTables() -> [UInt32] {
        var tables = [UInt32](repeating: 0, count: 16 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 {
                crc = (crc & 1) == 1 ? (crc >> 1) ^ Self.polynomial : crc >> 1
            }
            tables[byte] = crc
        }
        for slice in 1..<16 {
            for byte in 0..<256 {
                let previous = tables[(slice - 1) * 256 + byte]
                tables[slice * 256 + byte] = tables[Int(previous & 0xFF)] ^ (previous >> 8)
            }
        }
        return tables
    }
}
