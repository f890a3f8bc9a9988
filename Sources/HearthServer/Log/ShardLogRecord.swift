import HearthCore

/// A record of the node's write-ahead log: one shard entry (version 2), or a legacy record written before shards
/// had logs of their own (version 1).
///
/// Version 2 layout (little-endian): `u8 2`, `u16 shard`, `u64 index`, then the entry (`ShardEntry+Encoding`).
enum ShardLogRecord {
    case entry(shard: Int, index: UInt64, ShardEntry)
    case legacy(LegacyCommitRecord)

    static let version: UInt8 = 2

    /// The bytes of entry `index` of `shard`.
    static func encode(_ entry: ShardEntry, shard: Int, index: UInt64) -> [UInt8] {
        var bytes: [UInt8] = [Self.version]
        bytes.reserveCapacity(64)
        BinaryWriter.append(UInt16(truncatingIfNeeded: shard), to: &bytes)
        BinaryWriter.append(index, to: &bytes)
        entry.encode(into: &bytes)
        return bytes
    }

    /// Decodes a record of either version.
    /// - Throws: `CommitRecordError` when the bytes are neither.
    init(decoding bytes: [UInt8]) throws {
        do {
            var reader = BinaryReader(bytes: bytes)
            switch try reader.readUInt8() {
            case LegacyCommitRecord.version:
                self = .legacy(try LegacyCommitRecord(decoding: bytes))
            case Self.version:
                let shard = Int(try reader.readUInt16())
                let index = try reader.readUInt64()
                self = .entry(shard: shard, index: index, try ShardEntry(reading: &reader))
            case let version:
                throw CommitRecordError("unknown record version \(version)")
            }
        } catch let error as BinaryDecodingError {
            throw CommitRecordError(error)
        }
    }
}
