import HearthStorage

/// How the client's files hold records: the server's WAL framing (`WALFrame`: length, CRC-32C, a sequence number
/// the client leaves 0, since a record's place in its file is its order), so both check damage one way. A record
/// cut short by a crash, or damaged, ends what is read: the records before it are intact.
enum PersistenceFraming {
    static func frame(_ payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(WALFrame.size(payloadCount: payload.count))
        WALFrame.encode(lsn: 0, payload: payload, into: &bytes)
        return bytes
    }

    /// The intact records' payloads, and whether something after them was cut short or damaged.
    static func payloads(_ bytes: [UInt8]) -> (payloads: [[UInt8]], isDamaged: Bool) {
        bytes.withUnsafeBytes { buffer in
            var payloads: [[UInt8]] = []
            var offset = 0
            while offset < buffer.count {
                guard case .record(_, let payload, let end) = WALFrame.decode(buffer, at: offset) else {
                    return (payloads, true)
                }
                payloads.append(Array(buffer[payload]))
                offset = end
            }
            return (payloads, false)
        }
    }
}
