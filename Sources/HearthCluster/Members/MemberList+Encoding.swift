public import HearthCore

/// Binary forms of the member list (the member-list group's snapshot) and of its changes (its log's commands), on
/// HearthCore's `BinaryWriter`/`BinaryReader`. Each starts with a format byte, so a later release can tell its own.
extension MemberList {
    /// The first byte of an encoded list.
    static let formatVersion: UInt8 = 1

    /// Layout: `u8 1`, `u16 replication factor`, `u16 count` members (node, `u8 status`), `u16 count` tombstones
    /// (`string id`, `u64 index`).
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = [Self.formatVersion]
        BinaryWriter.append(UInt16(truncatingIfNeeded: self.replicationFactor), to: &bytes)
        BinaryWriter.append(UInt16(truncatingIfNeeded: self.members.count), to: &bytes)
        for member in self.members {
            member.node.encode(to: &bytes)
            BinaryWriter.append(member.status.rawValue, to: &bytes)
        }
        BinaryWriter.append(UInt16(truncatingIfNeeded: self.removed.count), to: &bytes)
        for (id, index) in self.removed.sorted(by: { $0.key < $1.key }) {
            BinaryWriter.appendString(id.name, to: &bytes)
            BinaryWriter.append(index, to: &bytes)
        }
        return bytes
    }

    /// Decodes a list written by `encoded()`.
    /// - Throws: `BinaryDecodingError` naming what is wrong.
    public init(decoding bytes: [UInt8]) throws(BinaryDecodingError) {
        var reader = BinaryReader(bytes: bytes)
        try reader.readFormatVersion(Self.formatVersion, of: "member list")
        let replicationFactor = Int(try reader.readUInt16())
        var members: [Member] = []
        for _ in 0..<Int(try reader.readUInt16()) {
            let node = try ClusterConfiguration.Node(from: &reader)
            let byte = try reader.readUInt8()
            guard let status = Status(rawValue: byte) else {
                throw BinaryDecodingError("member status \(byte) is unknown (1 or 2)")
            }
            members.append(Member(node: node, status: status))
        }
        var removed: [NodeID: UInt64] = [:]
        for _ in 0..<Int(try reader.readUInt16()) {
            let id = NodeID(try reader.readString())
            removed[id] = try reader.readUInt64()
        }
        guard reader.isAtEnd else { throw BinaryDecodingError("unexpected bytes after the member list") }
        self.init(members: members, removed: removed, replicationFactor: replicationFactor)
    }
}

extension MemberChange {
    static let formatVersion: UInt8 = 1

    /// Layout: `u8 1`, `u8 kind` (1 add, 2 leave, 3 remove), then the node (add) or its id.
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = [Self.formatVersion]
        switch self {
        case .add(let node):
            bytes.append(1)
            node.encode(to: &bytes)
        case .leave(let id):
            bytes.append(2)
            BinaryWriter.appendString(id.name, to: &bytes)
        case .remove(let id):
            bytes.append(3)
            BinaryWriter.appendString(id.name, to: &bytes)
        }
        return bytes
    }

    /// Decodes a change written by `encoded()`.
    /// - Throws: `BinaryDecodingError` naming what is wrong.
    public init(decoding bytes: [UInt8]) throws(BinaryDecodingError) {
        var reader = BinaryReader(bytes: bytes)
        try reader.readFormatVersion(Self.formatVersion, of: "member change")
        switch try reader.readUInt8() {
        case 1: self = .add(try ClusterConfiguration.Node(from: &reader))
        case 2: self = .leave(NodeID(try reader.readString()))
        case 3: self = .remove(NodeID(try reader.readString()))
        case let other: throw BinaryDecodingError("member change kind \(other) is unknown (1, 2 or 3)")
        }
        guard reader.isAtEnd else { throw BinaryDecodingError("unexpected bytes after the member change") }
    }
}

extension ClusterConfiguration.Node {
    /// Layout: `string id`, `string host`, `u16 HTTP port`, `u16 peer port`.
    public func encode(to bytes: inout [UInt8]) {
        BinaryWriter.appendString(self.id.name, to: &bytes)
        BinaryWriter.appendString(self.host, to: &bytes)
        BinaryWriter.append(UInt16(truncatingIfNeeded: self.httpPort), to: &bytes)
        BinaryWriter.append(UInt16(truncatingIfNeeded: self.peerPort), to: &bytes)
    }

    public init(from reader: inout BinaryReader) throws(BinaryDecodingError) {
        let id = NodeID(try reader.readString())
        let host = try reader.readString()
        let httpPort = Int(try reader.readUInt16())
        let peerPort = Int(try reader.readUInt16())
        self.init(id: id, host: host, httpPort: httpPort, peerPort: peerPort)
    }
}
