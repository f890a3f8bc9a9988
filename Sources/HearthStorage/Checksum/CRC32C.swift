/// CRC-32C (Castagnoli), the checksum framing every WAL record and snapshot so damage is detected, never replayed.
///
/// Table-driven slice-by-8: eight bytes are folded per step through eight 256-entry tables, which runs well above
/// 1 GB/s in release builds without hardware instructions. The value is incremental: feed bytes in any number of
/// `update` calls and read `value` at the end. Reference value: "123456789" → 0xE3069283.
package struct CRC32C: Sendable {
    /// The reflected Castagnoli polynomial.
    static let polynomial: UInt32 = 0x82F6_3B78

    /// Eight consecutive 256-entry tables; table `k` advances a byte through `k` further zero bytes.
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

    /// Feeds raw bytes, eight at a time through the slice-by-8 tables. O(n).
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            return
        }
        var crc = self.state
        var index = 0
        let count = bytes.count
        Self.tables.withUnsafeBufferPointer { table in
            while count - index >= 8 {
                let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self).littleEndian
                let low = UInt32(truncatingIfNeeded: word) ^ crc
                let high = UInt32(truncatingIfNeeded: word >> 32)
                crc =
                    table[7 * 256 + Int(low & 0xFF)]
                    ^ table[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ table[5 * 256 + Int((low >> 16) & 0xFF)]
                    ^ table[4 * 256 + Int(low >> 24)]
                    ^ table[3 * 256 + Int(high & 0xFF)]
                    ^ table[2 * 256 + Int((high >> 8) & 0xFF)]
                    ^ table[1 * 256 + Int((high >> 16) & 0xFF)]
                    ^ table[Int(high >> 24)]
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

    private static func makeTables() -> [UInt32] {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 {
                crc = (crc & 1) == 1 ? (crc >> 1) ^ Self.polynomial : crc >> 1
            }
            tables[byte] = crc
        }
        for slice in 1..<8 {
            for byte in 0..<256 {
                let previous = tables[(slice - 1) * 256 + byte]
                tables[slice * 256 + byte] = tables[Int(previous & 0xFF)] ^ (previous >> 8)
            }
        }
        return tables
    }
}
