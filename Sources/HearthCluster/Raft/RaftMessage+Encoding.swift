public import HearthCore

/// The peer-wire form of a Raft message: group, sender, receiver and term, then a kind byte and its fields.
/// Decoding bytes from a peer throws on anything malformed and never traps.
extension RaftMessage {
    private enum Tag: UInt8 {
        case append = 1, appendAccepted, appendRejected, vote, voteResponse, preVote, preVoteResponse
        case heartbeat, heartbeatResponse, installSnapshot, timeoutNow, readIndex, readIndexResponse
    }

    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        self.encode(to: &bytes)
        return bytes
    }

    public func encode(to bytes: inout [UInt8]) {
        BinaryWriter.append(self.group.rawValue, to: &bytes)
        BinaryWriter.appendString(self.from.name, to: &bytes)
        BinaryWriter.appendString(self.to.name, to: &bytes)
        BinaryWriter.append(self.term, to: &bytes)
        switch self.kind {
        case .append(let prevIndex, let prevTerm, let entries, let commit):
            Self.write(.append, prevIndex, prevTerm, commit, to: &bytes)
            BinaryWriter.append(UInt32(truncatingIfNeeded: entries.count), to: &bytes)
            for entry in entries { entry.encode(to: &bytes) }
        case .appendAccepted(let matchIndex):
            Self.write(.appendAccepted, matchIndex, to: &bytes)
        case .appendRejected(let rejectedIndex, let hintIndex, let hintTerm):
            Self.write(.appendRejected, rejectedIndex, hintIndex, hintTerm, to: &bytes)
        case .vote(let lastIndex, let lastTerm, let transfer):
            Self.write(.vote, lastIndex, lastTerm, transfer ? 1 : 0, to: &bytes)
        case .voteResponse(let granted):
            Self.write(.voteResponse, granted ? 1 : 0, to: &bytes)
        case .preVote(let lastIndex, let lastTerm):
            Self.write(.preVote, lastIndex, lastTerm, to: &bytes)
        case .preVoteResponse(let granted):
            Self.write(.preVoteResponse, granted ? 1 : 0, to: &bytes)
        case .heartbeat(let commit, let context):
            Self.write(.heartbeat, commit, to: &bytes)
            BinaryWriter.appendBytes(context, to: &bytes)
        case .heartbeatResponse(let context):
            Self.write(.heartbeatResponse, to: &bytes)
            BinaryWriter.appendBytes(context, to: &bytes)
        case .installSnapshot(let snapshot):
            Self.write(.installSnapshot, to: &bytes)
            snapshot.metadata.encode(to: &bytes)
            BinaryWriter.appendBytes(snapshot.data, to: &bytes)
        case .timeoutNow:
            Self.write(.timeoutNow, to: &bytes)
        case .readIndex(let context):
            Self.write(.readIndex, to: &bytes)
            BinaryWriter.appendBytes(context, to: &bytes)
        case .readIndexResponse(let index, let context):
            Self.write(.readIndexResponse, index, to: &bytes)
            BinaryWriter.appendBytes(context, to: &bytes)
        }
    }

    /// Decodes one whole message; trailing bytes are an error.
    public init(decoding bytes: [UInt8]) throws(BinaryDecodingError) {
        var reader = BinaryReader(bytes: bytes)
        try self.init(from: &reader)
        guard reader.isAtEnd else {
            throw BinaryDecodingError("\(bytes.count - reader.offset) bytes follow the Raft message")
        }
    }

    public init(from reader: inout BinaryReader) throws(BinaryDecodingError) {
        let group = RaftGroupID(try reader.readUInt32())
        let from = NodeID(try reader.readString())
        let to = NodeID(try reader.readString())
        let term = try reader.readUInt64()
        let tagByte = try reader.readUInt8()
        guard let tag = Tag(rawValue: tagByte) else {
            throw BinaryDecodingError("Raft message kind \(tagByte) is unknown")
        }
        self.init(group: group, from: from, to: to, term: term, kind: try Self.readKind(tag, from: &reader))
    }

    private static func readKind(_ tag: Tag, from reader: inout BinaryReader) throws(BinaryDecodingError) -> Kind {
        switch tag {
        case .append:
            let prevIndex = try reader.readUInt64()
            let prevTerm = try reader.readUInt64()
            let commit = try reader.readUInt64()
            let count = Int(try reader.readUInt32())
            // Every entry takes at least 17 bytes, so a count the remaining bytes cannot hold is refused up front.
            guard count <= (reader.bytes.count - reader.offset) / 17 else {
                throw BinaryDecodingError("append claims \(count) entries, more than its bytes can hold")
            }
            var entries: [RaftEntry] = []
            entries.reserveCapacity(count)
            for _ in 0..<count { entries.append(try RaftEntry(from: &reader)) }
            return .append(prevIndex: prevIndex, prevTerm: prevTerm, entries: entries, commit: commit)
        case .appendAccepted:
            return .appendAccepted(matchIndex: try reader.readUInt64())
        case .appendRejected:
            return .appendRejected(
                rejectedIndex: try reader.readUInt64(),
                hintIndex: try reader.readUInt64(),
                hintTerm: try reader.readUInt64()
            )
        case .vote:
            return .vote(
                lastIndex: try reader.readUInt64(), lastTerm: try reader.readUInt64(), transfer: try Self.flag(&reader))
        case .voteResponse:
            return .voteResponse(granted: try Self.flag(&reader))
        case .preVote:
            return .preVote(lastIndex: try reader.readUInt64(), lastTerm: try reader.readUInt64())
        case .preVoteResponse:
            return .preVoteResponse(granted: try Self.flag(&reader))
        case .heartbeat:
            return .heartbeat(commit: try reader.readUInt64(), context: try reader.readLengthPrefixedBytes())
        case .heartbeatResponse:
            return .heartbeatResponse(context: try reader.readLengthPrefixedBytes())
        case .installSnapshot:
            let metadata = try RaftSnapshotMetadata(from: &reader)
            return .installSnapshot(RaftSnapshot(metadata: metadata, data: try reader.readLengthPrefixedBytes()))
        case .timeoutNow:
            return .timeoutNow
        case .readIndex:
            return .readIndex(context: try reader.readLengthPrefixedBytes())
        case .readIndexResponse:
            return .readIndexResponse(index: try reader.readUInt64(), context: try reader.readLengthPrefixedBytes())
        }
    }

    private static func write(_ tag: Tag, _ fields: UInt64..., to bytes: inout [UInt8]) {
        BinaryWriter.append(tag.rawValue, to: &bytes)
        for field in fields { BinaryWriter.append(field, to: &bytes) }
    }

    private static func flag(_ reader: inout BinaryReader) throws(BinaryDecodingError) -> Bool {
        switch try reader.readUInt64() {
        case 0: return false
        case 1: return true
        case let other: throw BinaryDecodingError("flag is \(other), not 0 or 1")
        }
    }
}
