import HearthStorage

/// How the client's files hold records: each is its length (4 bytes, little-endian), the CRC-32C of its payload
/// (4 bytes) and the payload. A record cut short by a crash, or damaged, ends what is read: the records before it
/// are intact.
enum PersistenceFraming {
    static func frame(_ payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(payload.count + 8)
        Self.append(UInt32(payload.count), to: &bytes)
        Self.append(CRC32C.checksum(payload), to: &bytes)
        bytes += payload
        return bytes
    }

    /// The intact records' payloads, and whether something after them was cut short or damaged.
    static func payloads(_ bytes: [UInt8]) -> (payloads: [[UInt8]], isDamaged: Bool) {
        var payloads: [[UInt8]] = []
        var offset = 0
        while offset < bytes.count {
            guard bytes.count - offset >= 8 else { return (payloads, true) }
            let length = Int(Self.read(bytes, at: offset))
            let checksum = Self.read(bytes, at: offset + 4)
            guard bytes.count - offset - 8 >= length else { return (payloads, true) }
            let payload = Array(bytes[(offset + 8)..<(offset + 8 + length)])
            guard CRC32C.checksum(payload) == checksum else { return (payloads, true) }
            payloads.append(payload)
            offset += 8 + length
        }
        return (payloads, false)
    }

    private static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    private static func read(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << UInt32($1 * 8) }
    }
}
