public import HearthCore

/// A node asking a member to let it join the cluster: the one exchange `hearth serve --join host:peerPort` makes
/// before it has any peers. It goes to a member's peer port as the first frame of a connection (kind
/// `PeerFrameKind.join`, instead of a hello, since the joining node knows neither the cluster's name nor the
/// member's); the member answers with one `JoinReply` frame and closes.
public struct JoinRequest: Sendable, Equatable {
    /// The joining node: its name and where it listens.
    public var node: ClusterConfiguration.Node

    public init(node: ClusterConfiguration.Node) {
        self.node = node
    }

    static let formatVersion: UInt8 = 1

    /// Layout: `u8 1`, the node.
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = [Self.formatVersion]
        self.node.encode(to: &bytes)
        return bytes
    }

    /// - Throws: `BinaryDecodingError` naming what is wrong.
    public init(decoding bytes: [UInt8]) throws(BinaryDecodingError) {
        var reader = BinaryReader(bytes: bytes)
        try reader.readFormatVersion(Self.formatVersion, of: "join request")
        self.node = try ClusterConfiguration.Node(from: &reader)
        guard reader.isAtEnd else { throw BinaryDecodingError("unexpected bytes after the join request") }
    }
}

/// A member's answer to a `JoinRequest`.
public enum JoinReply: Sendable, Equatable {
    /// The member list took the node. It carries what the node needs to start as a member: the configuration the
    /// cluster was founded with (its name, shards, replication factor, and the member list's starting point) and the
    /// members as they stand now (its first peers).
    case accepted(founding: ClusterConfiguration, members: MemberList)
    /// Only the member list's leader adds members: ask it, at this peer address.
    case redirect(host: String, peerPort: Int)
    /// No answer can be given now (an election, a change not yet confirmed): ask again shortly.
    case retry(String)
    /// The node cannot join as asked; the message says why and what to do.
    case refused(String)

    static let formatVersion: UInt8 = 1
    /// The format of an accepted reply for a cluster whose configuration sets `groups`: version 1 followed by
    /// `u32 groups` after the shard count. A release that reads only version 1 refuses it ("join reply format 2 is
    /// unknown"), so a node too old to know groups never joins a grouped cluster as if every shard had its own group.
    static let groupedFormatVersion: UInt8 = 2

    /// Layout: `u8 1` (`u8 2` for an accepted reply whose founding configuration sets `groups`), `u8 kind`
    /// (1 accepted, 2 redirect, 3 retry, 4 refused), then for accepted the founding configuration (`string name`,
    /// `u32 shards`, in format 2 `u32 groups`, `u16 replication factor`, `u16 shard depth`, `u16 count` nodes) and
    /// the encoded member list as `bytes`; for redirect `string host`, `u16 port`; else a `string` message.
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = [Self.formatVersion]
        switch self {
        case .accepted(let founding, let members):
            bytes.append(1)
            BinaryWriter.appendString(founding.name, to: &bytes)
            BinaryWriter.append(UInt32(truncatingIfNeeded: founding.shards), to: &bytes)
            if let groups = founding.groups {
                bytes[0] = Self.groupedFormatVersion
                BinaryWriter.append(UInt32(truncatingIfNeeded: groups), to: &bytes)
            }
            BinaryWriter.append(UInt16(truncatingIfNeeded: founding.replicationFactor), to: &bytes)
            BinaryWriter.append(UInt16(truncatingIfNeeded: founding.shardDepth), to: &bytes)
            BinaryWriter.append(UInt16(truncatingIfNeeded: founding.nodes.count), to: &bytes)
            for node in founding.nodes { node.encode(to: &bytes) }
            BinaryWriter.appendBytes(members.encoded(), to: &bytes)
        case .redirect(let host, let peerPort):
            bytes.append(2)
            BinaryWriter.appendString(host, to: &bytes)
            BinaryWriter.append(UInt16(truncatingIfNeeded: peerPort), to: &bytes)
        case .retry(let message):
            bytes.append(3)
            BinaryWriter.appendString(message, to: &bytes)
        case .refused(let message):
            bytes.append(4)
            BinaryWriter.appendString(message, to: &bytes)
        }
        return bytes
    }

    /// - Throws: `BinaryDecodingError` naming what is wrong (a founding configuration that breaks a rule too).
    public init(decoding bytes: [UInt8]) throws(BinaryDecodingError) {
        var reader = BinaryReader(bytes: bytes)
        let grouped = bytes.first == Self.groupedFormatVersion
        try reader.readFormatVersion(grouped ? Self.groupedFormatVersion : Self.formatVersion, of: "join reply")
        let kind = try reader.readUInt8()
        guard !grouped || kind == 1 else {
            throw BinaryDecodingError("join reply format 2 carries only an accepted reply, not kind \(kind)")
        }
        switch kind {
        case 1:
            let name = try reader.readString()
            let shards = Int(try reader.readUInt32())
            let groups = grouped ? Int(try reader.readUInt32()) : nil
            let replicationFactor = Int(try reader.readUInt16())
            let shardDepth = Int(try reader.readUInt16())
            var nodes: [ClusterConfiguration.Node] = []
            for _ in 0..<Int(try reader.readUInt16()) { nodes.append(try ClusterConfiguration.Node(from: &reader)) }
            let members = try MemberList(decoding: try reader.readLengthPrefixedBytes())
            do {
                let founding = try ClusterConfiguration(
                    name: name, nodes: nodes, shards: shards, groups: groups, replicationFactor: replicationFactor,
                    shardDepth: shardDepth)
                self = .accepted(founding: founding, members: members)
            } catch {
                throw BinaryDecodingError("the founding configuration is not valid: \(error.message)")
            }
        case 2:
            let host = try reader.readString()
            self = .redirect(host: host, peerPort: Int(try reader.readUInt16()))
        case 3:
            self = .retry(try reader.readString())
        case 4:
            self = .refused(try reader.readString())
        case let other:
            throw BinaryDecodingError("join reply kind \(other) is unknown (1 to 4)")
        }
        guard reader.isAtEnd else { throw BinaryDecodingError("unexpected bytes after the join reply") }
    }
}
