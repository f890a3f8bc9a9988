public import HearthCore

/// What a node writes to its one write-ahead log for its Raft groups (one group per shard), so that every group
/// shares one record sequence and one group-commit fsync.
///
/// Storage treats a group's hard state, entries and snapshot metadata as opaque bytes (Raft's own codecs make
/// them); it only needs each entry's index, which follows from the record's first index. Replay gives each group
/// back its newest hard state, its newest snapshot and the entries after it (`RaftLogReplay`).
public enum RaftLogRecord: Sendable, Equatable {
    /// The group's hard state (term, vote, commit) as Raft encoded it; the newest one wins.
    case hardState(group: Int, bytes: [UInt8])
    /// The group's entries from `firstIndex` on, in order. They replace whatever the group's log held at and
    /// after `firstIndex` (a follower overwriting a conflicting suffix writes exactly this).
    case entries(group: Int, firstIndex: UInt64, entries: [[UInt8]])
    /// The group's state machine is covered by a snapshot through `index`; the entries up to it are no longer
    /// needed. `metadata` is Raft's snapshot metadata (index, term, members) as Raft encoded it.
    case snapshot(group: Int, index: UInt64, metadata: [UInt8])

    /// The record's group.
    public var group: Int {
        switch self {
        case .hardState(let group, _), .entries(let group, _, _), .snapshot(let group, _, _): group
        }
    }
}

extension RaftLogRecord {
    /// The first byte of every Raft record, distinct from the versions of the single-node shard records (1, 2)
    /// that share the write-ahead log's format.
    public static let formatVersion: UInt8 = 16

    private enum Kind: UInt8 {
        case hardState = 1
        case entries = 2
        case snapshot = 3
    }

    /// Layout (little-endian): `u8 16`, `u8 kind`, `u32 group`, then for hard state `bytes`; for entries
    /// `u64 first index`, `u32 count`, each entry as `bytes`; for a snapshot `u64 index`, `bytes` — where `bytes`
    /// is a `u32` length and the bytes.
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = [Self.formatVersion]
        switch self {
        case .hardState(let group, let state):
            bytes.append(Kind.hardState.rawValue)
            BinaryWriter.append(UInt32(truncatingIfNeeded: group), to: &bytes)
            BinaryWriter.appendBytes(state, to: &bytes)
        case .entries(let group, let firstIndex, let entries):
            bytes.reserveCapacity(18 + entries.reduce(0) { $0 + 4 + $1.count })
            bytes.append(Kind.entries.rawValue)
            BinaryWriter.append(UInt32(truncatingIfNeeded: group), to: &bytes)
            BinaryWriter.append(firstIndex, to: &bytes)
            BinaryWriter.append(UInt32(truncatingIfNeeded: entries.count), to: &bytes)
            for entry in entries { BinaryWriter.appendBytes(entry, to: &bytes) }
        case .snapshot(let group, let index, let metadata):
            bytes.append(Kind.snapshot.rawValue)
            BinaryWriter.append(UInt32(truncatingIfNeeded: group), to: &bytes)
            BinaryWriter.append(index, to: &bytes)
            BinaryWriter.appendBytes(metadata, to: &bytes)
        }
        return bytes
    }

    /// Decodes a record written by `encoded()`.
    /// - Throws: `BinaryDecodingError` naming what is wrong; a damaged record is never skipped.
    public init(decoding bytes: [UInt8]) throws(BinaryDecodingError) {
        var reader = BinaryReader(bytes: bytes)
        try reader.readFormatVersion(Self.formatVersion, of: "Raft log record")
        let kindByte = try reader.readUInt8()
        let group = Int(try reader.readUInt32())
        switch Kind(rawValue: kindByte) {
        case .hardState:
            self = .hardState(group: group, bytes: try reader.readLengthPrefixedBytes())
        case .entries:
            let firstIndex = try reader.readUInt64()
            let count = Int(try reader.readUInt32())
            guard count <= bytes.count else { throw BinaryDecodingError("entry count \(count) exceeds the record") }
            var entries: [[UInt8]] = []
            entries.reserveCapacity(count)
            for _ in 0..<count { entries.append(try reader.readLengthPrefixedBytes()) }
            self = .entries(group: group, firstIndex: firstIndex, entries: entries)
        case .snapshot:
            let index = try reader.readUInt64()
            self = .snapshot(group: group, index: index, metadata: try reader.readLengthPrefixedBytes())
        case nil:
            throw BinaryDecodingError("unknown Raft log record kind \(kindByte)")
        }
        guard reader.isAtEnd else {
            throw BinaryDecodingError("\(bytes.count - reader.offset) unexpected bytes after the record")
        }
    }
}
