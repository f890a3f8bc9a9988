import HearthCore

/// A record of the node's write-ahead log: one shard entry (version 2), the entries of several shards that are
/// durable together or not at all (version 3), or a legacy record written before shards had logs of their own
/// (version 1).
///
/// Version 2 layout (little-endian): `u8 2`, `u16 shard`, `u64 index`, then the entry (`ShardEntry+Encoding`).
/// Version 3: `u8 3`, `u16 n`, then n × (`u16 shard`, `u64 index`, `u32 length`, the entry in `length` bytes) — a
/// transaction's parts committed at once (`ShardEntry.commit`), one record so that a torn tail cannot keep one
/// part without the others.
package enum ShardLogRecord {
    case entry(shard: Int, index: UInt64, ShardEntry)
    case entries([(shard: Int, index: UInt64, entry: ShardEntry)])
    case legacy(LegacyCommitRecord)

    static let version: UInt8 = 2
    static let togetherVersion: UInt8 = 3

    /// The bytes of entry `index` of `shard`.
    package static func encode(_ entry: ShardEntry, shard: Int, index: UInt64) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        Self.encode(entry, shard: shard, index: index, into: &bytes)
        return bytes
    }

    /// Appends the bytes of entry `index` of `shard` to `bytes`.
    package static func encode(_ entry: ShardEntry, shard: Int, index: UInt64, into bytes: inout [UInt8]) {
        bytes.append(Self.version)
        BinaryWriter.append(UInt16(truncatingIfNeeded: shard), to: &bytes)
        BinaryWriter.append(index, to: &bytes)
        entry.encode(into: &bytes)
    }

    /// Appends the bytes of one record holding every entry of `entries`, each at its shard's index, to `bytes`.
    /// The entries are counted as they go (their number is filled in at the end), so any sequence will do; the
    /// node's log writes from its arrays with `encode(together:at:into:)`, the same bytes.
    static func encode(
        together entries: some Sequence<(shard: Int, index: UInt64, entry: ShardEntry)>, into bytes: inout [UInt8]
    ) {
        bytes.append(Self.togetherVersion)
        let countAt = bytes.count
        BinaryWriter.append(UInt16(0), to: &bytes)
        var count = 0
        for (shard, index, entry) in entries {
            Self.appendPart(entry, shard: shard, index: index, to: &bytes)
            count += 1
        }
        BinaryWriter.write(UInt16(truncatingIfNeeded: count), at: countAt, in: &bytes)
    }

    /// `encode(together:into:)` for `entries` at `positions` (the same count; each entry at its position's shard
    /// and index), the same bytes: each entry is moved out of the array's buffer while it is written and put back
    /// after (`entries` ends as it began). A sequence of tuples copied every entry out whole (its write's namespace,
    /// mutations and origin retained, then released), and so did reading it where the buffer holds it, around the
    /// call that writes it.
    static func encode(
        together entries: inout [ShardEntry], at positions: [ShardLogPosition], into bytes: inout [UInt8]
    ) {
        precondition(entries.count == positions.count, "a record's entries each need their shard and index")
        BinaryWriter.append(count: 1 + 2, to: &bytes) { cursor in
            cursor.write(Self.togetherVersion)
            cursor.write(UInt16(truncatingIfNeeded: entries.count))
        }
        entries.withUnsafeMutableBufferPointer { entries in
            for part in entries.indices {
                let entry = entries.moveElement(from: part)
                Self.appendPart(entry, shard: positions[part].shard, index: positions[part].index, to: &bytes)
                entries.initializeElement(at: part, to: consume entry)
            }
        }
    }

    /// Appends one entry of a record of several: `u16 shard`, `u64 index`, `u32 length`, the entry.
    private static func appendPart(_ entry: ShardEntry, shard: Int, index: UInt64, to bytes: inout [UInt8]) {
        BinaryWriter.append(count: 2 + 8 + 4, to: &bytes) { cursor in
            cursor.write(UInt16(truncatingIfNeeded: shard))
            cursor.write(index)
            cursor.write(UInt32(0))
        }
        let lengthAt = bytes.count - 4
        entry.encode(into: &bytes)
        BinaryWriter.write(UInt32(truncatingIfNeeded: bytes.count - lengthAt - 4), at: lengthAt, in: &bytes)
    }

    /// The entries the record holds, in order (none for a legacy record).
    var shardEntries: [(shard: Int, index: UInt64, entry: ShardEntry)] {
        switch self {
        case .entry(let shard, let index, let entry): [(shard, index, entry)]
        case .entries(let entries): entries
        case .legacy: []
        }
    }

    /// Decodes a record of any version.
    /// - Throws: `CommitRecordError` when the bytes are none of them.
    package init(decoding bytes: [UInt8]) throws {
        do {
            var reader = BinaryReader(bytes: bytes)
            switch try reader.readUInt8() {
            case LegacyCommitRecord.version:
                self = .legacy(try LegacyCommitRecord(decoding: bytes))
            case Self.version:
                let shard = Int(try reader.readUInt16())
                let index = try reader.readUInt64()
                self = .entry(shard: shard, index: index, try ShardEntry(reading: &reader))
            case Self.togetherVersion:
                let count = Int(try reader.readUInt16())
                var entries: [(shard: Int, index: UInt64, entry: ShardEntry)] = []
                for _ in 0..<count {
                    let shard = Int(try reader.readUInt16())
                    let index = try reader.readUInt64()
                    var entryReader = BinaryReader(bytes: try reader.readBytes(count: Int(try reader.readUInt32())))
                    entries.append((shard, index, try ShardEntry(reading: &entryReader)))
                    guard entryReader.isAtEnd else {
                        throw CommitRecordError("entry \(index) of shard \(shard) has bytes after its end")
                    }
                }
                self = .entries(entries)
            case let version:
                throw CommitRecordError("unknown record version \(version)")
            }
        } catch let error as BinaryDecodingError {
            throw CommitRecordError(error)
        }
    }
}
