public import HearthCore

/// Binary forms of the values a WAL stores (entries, hard state, snapshot metadata) and messages carry, on
/// HearthCore's `BinaryWriter`/`BinaryReader`. Decoding throws on malformed bytes and never traps.
extension RaftEntry {
    public func encode(to bytes: inout [UInt8]) {
        BinaryWriter.append(self.index, to: &bytes)
        BinaryWriter.append(self.term, to: &bytes)
        switch self.payload {
        case .noop:
            BinaryWriter.append(UInt8(0), to: &bytes)
        case .command(let data):
            BinaryWriter.append(UInt8(1), to: &bytes)
            BinaryWriter.appendBytes(data, to: &bytes)
        case .membership(let membership):
            BinaryWriter.append(UInt8(2), to: &bytes)
            membership.encode(to: &bytes)
        }
    }

    public init(from reader: inout BinaryReader) throws(BinaryDecodingError) {
        let index = try reader.readUInt64()
        let term = try reader.readUInt64()
        let payload: Payload
        switch try reader.readUInt8() {
        case 0: payload = .noop
        case 1: payload = .command(try reader.readLengthPrefixedBytes())
        case 2: payload = .membership(try RaftMembership(from: &reader))
        case let other: throw BinaryDecodingError("entry payload kind \(other) is unknown (0, 1 or 2)")
        }
        self.init(index: index, term: term, payload: payload)
    }
}

extension RaftMembership {
    public func encode(to bytes: inout [UInt8]) {
        NodeID.encodeList(self.voters, to: &bytes)
        NodeID.encodeList(self.learners, to: &bytes)
    }

    public init(from reader: inout BinaryReader) throws(BinaryDecodingError) {
        let voters = try NodeID.decodeList(from: &reader)
        let learners = try NodeID.decodeList(from: &reader)
        self.init(voters: voters, learners: learners)
    }
}

extension RaftHardState {
    public func encode(to bytes: inout [UInt8]) {
        BinaryWriter.append(self.term, to: &bytes)
        BinaryWriter.append(self.commit, to: &bytes)
        NodeID.encodeOptional(self.votedFor, to: &bytes)
    }

    public init(from reader: inout BinaryReader) throws(BinaryDecodingError) {
        let term = try reader.readUInt64()
        let commit = try reader.readUInt64()
        let votedFor = try NodeID.decodeOptional(from: &reader)
        self.init(term: term, votedFor: votedFor, commit: commit)
    }
}

extension RaftSnapshotMetadata {
    public func encode(to bytes: inout [UInt8]) {
        BinaryWriter.append(self.index, to: &bytes)
        BinaryWriter.append(self.term, to: &bytes)
        self.membership.encode(to: &bytes)
    }

    public init(from reader: inout BinaryReader) throws(BinaryDecodingError) {
        let index = try reader.readUInt64()
        let term = try reader.readUInt64()
        let membership = try RaftMembership(from: &reader)
        self.init(index: index, term: term, membership: membership)
    }
}

extension NodeID {
    static func encodeList(_ nodes: [NodeID], to bytes: inout [UInt8]) {
        BinaryWriter.append(UInt16(truncatingIfNeeded: nodes.count), to: &bytes)
        for node in nodes { BinaryWriter.appendString(node.name, to: &bytes) }
    }

    static func decodeList(from reader: inout BinaryReader) throws(BinaryDecodingError) -> [NodeID] {
        let count = Int(try reader.readUInt16())
        var nodes: [NodeID] = []
        for _ in 0..<count { nodes.append(NodeID(try reader.readString())) }
        return nodes
    }

    static func encodeOptional(_ node: NodeID?, to bytes: inout [UInt8]) {
        BinaryWriter.append(UInt8(node == nil ? 0 : 1), to: &bytes)
        if let node { BinaryWriter.appendString(node.name, to: &bytes) }
    }

    static func decodeOptional(from reader: inout BinaryReader) throws(BinaryDecodingError) -> NodeID? {
        try reader.readBool() ? NodeID(try reader.readString()) : nil
    }
}
