public import HearthCore

/// The binary form of SWIM messages, little-endian through HearthCore's `BinaryWriter`/`BinaryReader`:
///
///     message  = kind u8 (1 ping, 2 ping request, 3 ack, 4 nack), then the fields below
///     ping     = member(origin) sequence u64 wantsFullState bool gossip
///     pingReq  = member(origin) string(target) sequence u64 gossip
///     ack      = member(target) sequence u64 gossip
///     nack     = string(target) sequence u64
///     gossip   = count u16, member × count
///     member   = string(id) string(host) peerPort u16 httpPort u16 generation u64 incarnation u64
///                status u8 (0 alive, 1 suspect, 2 dead, 3 left) [suspect: count u8, string(id) × count]
///
/// Decoding trusts nothing: short input, unknown tags and trailing bytes throw `BinaryDecodingError`.
extension SWIMMessage {
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        switch self {
        case .ping(let ping):
            bytes.append(1)
            Self.appendMember(ping.origin, to: &bytes)
            BinaryWriter.append(ping.sequence, to: &bytes)
            bytes.append(ping.wantsFullState ? 1 : 0)
            Self.appendGossip(ping.gossip, to: &bytes)
        case .pingRequest(let request):
            bytes.append(2)
            Self.appendMember(request.origin, to: &bytes)
            BinaryWriter.appendString(request.target.name, to: &bytes)
            BinaryWriter.append(request.sequence, to: &bytes)
            Self.appendGossip(request.gossip, to: &bytes)
        case .ack(let ack):
            bytes.append(3)
            Self.appendMember(ack.target, to: &bytes)
            BinaryWriter.append(ack.sequence, to: &bytes)
            Self.appendGossip(ack.gossip, to: &bytes)
        case .nack(let nack):
            bytes.append(4)
            BinaryWriter.appendString(nack.target.name, to: &bytes)
            BinaryWriter.append(nack.sequence, to: &bytes)
        }
        return bytes
    }

    public init(decoding bytes: [UInt8]) throws(BinaryDecodingError) {
        var reader = BinaryReader(bytes: bytes)
        switch try reader.readUInt8() {
        case 1:
            let origin = try Self.readMember(&reader)
            let sequence = try reader.readUInt64()
            let wantsFullState = try reader.readBool()
            let gossip = try Self.readGossip(&reader)
            self = .ping(Ping(origin: origin, sequence: sequence, wantsFullState: wantsFullState, gossip: gossip))
        case 2:
            let origin = try Self.readMember(&reader)
            let target = NodeID(try reader.readString())
            let sequence = try reader.readUInt64()
            let gossip = try Self.readGossip(&reader)
            self = .pingRequest(PingRequest(origin: origin, target: target, sequence: sequence, gossip: gossip))
        case 3:
            let target = try Self.readMember(&reader)
            let sequence = try reader.readUInt64()
            let gossip = try Self.readGossip(&reader)
            self = .ack(Ack(target: target, sequence: sequence, gossip: gossip))
        case 4:
            let target = NodeID(try reader.readString())
            self = .nack(Nack(target: target, sequence: try reader.readUInt64()))
        case let other:
            throw BinaryDecodingError("byte 0 is \(other), not a SWIM message kind (1 to 4)")
        }
        guard reader.isAtEnd else {
            throw BinaryDecodingError("\(bytes.count - reader.offset) unexpected bytes after a SWIM message")
        }
    }

    private static func appendGossip(_ gossip: [SWIMMember], to bytes: inout [UInt8]) {
        precondition(gossip.count <= Int(UInt16.max), "\(gossip.count) gossip records do not fit one message")
        BinaryWriter.append(UInt16(gossip.count), to: &bytes)
        for member in gossip {
            Self.appendMember(member, to: &bytes)
        }
    }

    private static func appendMember(_ member: SWIMMember, to bytes: inout [UInt8]) {
        BinaryWriter.appendString(member.id.name, to: &bytes)
        BinaryWriter.appendString(member.address.host, to: &bytes)
        BinaryWriter.append(member.address.peerPort, to: &bytes)
        BinaryWriter.append(member.address.httpPort, to: &bytes)
        BinaryWriter.append(member.generation, to: &bytes)
        BinaryWriter.append(member.incarnation, to: &bytes)
        switch member.status {
        case .alive:
            bytes.append(0)
        case .suspect(let suspectedBy):
            bytes.append(1)
            let written = suspectedBy.prefix(Int(UInt8.max))
            bytes.append(UInt8(written.count))
            for id in written {
                BinaryWriter.appendString(id.name, to: &bytes)
            }
        case .dead:
            bytes.append(2)
        case .left:
            bytes.append(3)
        }
    }

    private static func readGossip(_ reader: inout BinaryReader) throws(BinaryDecodingError) -> [SWIMMember] {
        let count = Int(try reader.readUInt16())
        var gossip: [SWIMMember] = []
        for _ in 0..<count {
            gossip.append(try Self.readMember(&reader))
        }
        return gossip
    }

    private static func readMember(_ reader: inout BinaryReader) throws(BinaryDecodingError) -> SWIMMember {
        let id = NodeID(try reader.readString())
        let host = try reader.readString()
        let peerPort = try reader.readUInt16()
        let httpPort = try reader.readUInt16()
        let generation = try reader.readUInt64()
        let incarnation = try reader.readUInt64()
        let status: SWIMStatus
        switch try reader.readUInt8() {
        case 0:
            status = .alive
        case 1:
            var suspectedBy: [NodeID] = []
            for _ in 0..<Int(try reader.readUInt8()) {
                suspectedBy.append(NodeID(try reader.readString()))
            }
            status = .suspect(suspectedBy: suspectedBy)
        case 2:
            status = .dead
        case 3:
            status = .left
        case let other:
            throw BinaryDecodingError("byte \(reader.offset - 1) is \(other), not a member status (0 to 3)")
        }
        return SWIMMember(
            id: id,
            address: SWIMAddress(host: host, peerPort: peerPort, httpPort: httpPort),
            generation: generation,
            incarnation: incarnation,
            status: status
        )
    }
}
