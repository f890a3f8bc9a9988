public import HearthCore

/// A piece of a Raft snapshot's transfer in chunks (`SnapshotTransfers`), as it travels in a peer frame of kind
/// `raftSnapshot`. A snapshot names its group, index and term; every piece after the offer repeats them, so a piece
/// of an older transfer is recognised and dropped.
public enum SnapshotTransferFrame: Sendable, Equatable {
    /// Leader → follower: this `installSnapshot` message (its data left out) has `total` bytes of data to pull.
    case offer(RaftMessage, total: UInt64)
    /// Follower → leader: send the data from `offset` on (`offset == total` says the transfer is complete).
    case request(group: RaftGroupID, index: UInt64, term: UInt64, offset: UInt64)
    /// Leader → follower: the data at `offset`.
    case chunk(group: RaftGroupID, index: UInt64, term: UInt64, offset: UInt64, bytes: [UInt8])
    /// Leader → follower: that snapshot is no longer offered (a newer one replaced it); wait for the next offer.
    case gone(group: RaftGroupID, index: UInt64, term: UInt64)

    private enum Tag: UInt8 {
        case offer = 1, request, chunk, gone
    }

    /// Layout (little-endian): `u8 tag`, then for an offer the message (`RaftMessage.encode`) and `u64 total`; for
    /// the others `u32 group`, `u64 index`, `u64 term`, then for a request `u64 offset`, for a chunk `u64 offset` and
    /// `bytes` (`u32` length and the bytes).
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        switch self {
        case .offer(let message, let total):
            bytes.append(Tag.offer.rawValue)
            message.encode(to: &bytes)
            BinaryWriter.append(total, to: &bytes)
        case .request(let group, let index, let term, let offset):
            Self.header(.request, group, index, term, to: &bytes)
            BinaryWriter.append(offset, to: &bytes)
        case .chunk(let group, let index, let term, let offset, let data):
            Self.header(.chunk, group, index, term, to: &bytes)
            BinaryWriter.append(offset, to: &bytes)
            BinaryWriter.appendBytes(data, to: &bytes)
        case .gone(let group, let index, let term):
            Self.header(.gone, group, index, term, to: &bytes)
        }
        return bytes
    }

    /// Decodes a frame from a peer.
    /// - Throws: `BinaryDecodingError` naming what is wrong; a damaged frame is never half read.
    public init(decoding bytes: [UInt8]) throws(BinaryDecodingError) {
        var reader = BinaryReader(bytes: bytes)
        let tagByte = try reader.readUInt8()
        switch Tag(rawValue: tagByte) {
        case .offer:
            let message = try RaftMessage(from: &reader)
            self = .offer(message, total: try reader.readUInt64())
        case .request:
            let (group, index, term) = try Self.readHeader(&reader)
            self = .request(group: group, index: index, term: term, offset: try reader.readUInt64())
        case .chunk:
            let (group, index, term) = try Self.readHeader(&reader)
            let offset = try reader.readUInt64()
            self = .chunk(
                group: group, index: index, term: term, offset: offset, bytes: try reader.readLengthPrefixedBytes())
        case .gone:
            let (group, index, term) = try Self.readHeader(&reader)
            self = .gone(group: group, index: index, term: term)
        case nil:
            throw BinaryDecodingError("snapshot transfer frame kind \(tagByte) is unknown")
        }
        guard reader.isAtEnd else {
            throw BinaryDecodingError("\(bytes.count - reader.offset) bytes follow the snapshot transfer frame")
        }
    }

    private static func header(
        _ tag: Tag, _ group: RaftGroupID, _ index: UInt64, _ term: UInt64, to bytes: inout [UInt8]
    ) {
        bytes.append(tag.rawValue)
        BinaryWriter.append(group.rawValue, to: &bytes)
        BinaryWriter.append(index, to: &bytes)
        BinaryWriter.append(term, to: &bytes)
    }

    private static func readHeader(_ reader: inout BinaryReader) throws(BinaryDecodingError)
        -> (RaftGroupID, UInt64, UInt64)
    {
        let group = RaftGroupID(try reader.readUInt32())
        return (group, try reader.readUInt64(), try reader.readUInt64())
    }
}
