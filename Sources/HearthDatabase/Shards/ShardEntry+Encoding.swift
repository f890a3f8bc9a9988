package import HearthCore
import HearthWire

/// The binary form of a shard entry inside a log record (little-endian):
///
/// ```
/// u8 kind: 1 write, 2 prepare, 3 decide, 4 finish, 5 forget, 6 guarded prepare, 7 commit
/// write:    ShardWrite
/// prepare:  u64 transaction, u16 anchor, u16 n, n × u16 participant, ShardWrite
/// guarded prepare: a prepare, then u32 n, n × guard path (u16 length, UTF-8)
/// decide:   u64 transaction, u8 commit (0 or 1), u8 has part (0 or 1), then if 1: the part as a prepare body
///           (u16 anchor, u16 n, n × u16 participant, ShardWrite)
/// finish:   u64 transaction, u8 commit (0 or 1)
/// forget:   u32 n, n × u64 transaction
/// commit:   u64 transaction, then the part as a prepare body
/// ShardWrite: u16 namespace length (bit 15 set when an origin follows the mutations), namespace UTF-8, i64 now,
///             u32 count, then per mutation
///             u8 kind (1 set, 2 set priority), u16 path length, path UTF-8, u64 value length, value JSON
///             (server values as the client's {".sv": …}, see `WriteValue.jsonValue()`);
///             then, with bit 15: u8 client length, client UTF-8, u64 sequence, u64 settled below (`WriteOrigin`)
/// ```
/// Namespace names are at most 128 bytes, so bit 15 was never set before writes carried origins: older logs read
/// unchanged.
extension ShardEntry {
    /// Appends the entry's bytes to `bytes`.
    public func encode(into bytes: inout [UInt8]) {
        switch self {
        case .write(let write):
            bytes.append(1)
            write.encode(into: &bytes)
        case .prepare(let transaction, let intent):
            bytes.append(intent.guards.isEmpty ? 2 : 6)
            BinaryWriter.append(transaction.rawValue, to: &bytes)
            intent.encode(into: &bytes)
            if !intent.guards.isEmpty { intent.encodeGuards(into: &bytes) }
        case .decide(let transaction, let commit, let part):
            bytes.append(3)
            BinaryWriter.append(transaction.rawValue, to: &bytes)
            bytes.append(commit ? 1 : 0)
            bytes.append(part == nil ? 0 : 1)
            part?.encode(into: &bytes)
        case .finish(let transaction, let commit):
            bytes.append(4)
            BinaryWriter.append(transaction.rawValue, to: &bytes)
            bytes.append(commit ? 1 : 0)
        case .forget(let transactions):
            bytes.append(5)
            TransactionID.encode(transactions, into: &bytes)
        case .commit(let transaction, let part):
            bytes.append(7)
            BinaryWriter.append(transaction.rawValue, to: &bytes)
            part.encode(into: &bytes)
        }
    }

    /// Reads an entry written by `encode(into:)`.
    /// - Throws: `CommitRecordError` when the bytes are not an entry this version understands.
    package init(reading reader: inout BinaryReader) throws {
        switch try reader.readUInt8() {
        case 1:
            self = .write(try ShardWrite(reading: &reader))
        case let kind where kind == 2 || kind == 6:
            let transaction = TransactionID(rawValue: try reader.readUInt64())
            var intent = try ShardIntent(reading: &reader)
            if kind == 6 { try intent.readGuards(&reader) }
            self = .prepare(transaction, intent)
        case 3:
            let transaction = TransactionID(rawValue: try reader.readUInt64())
            let commit = try reader.readUInt8() == 1
            let part = try reader.readUInt8() == 1 ? try ShardIntent(reading: &reader) : nil
            self = .decide(transaction, commit: commit, part)
        case 4:
            self = .finish(TransactionID(rawValue: try reader.readUInt64()), commit: try reader.readUInt8() == 1)
        case 5:
            self = .forget(try TransactionID.decodeList(from: &reader))
        case 7:
            let transaction = TransactionID(rawValue: try reader.readUInt64())
            self = .commit(transaction, try ShardIntent(reading: &reader))
        case let kind:
            throw CommitRecordError("unknown shard entry kind \(kind)")
        }
    }
}

extension ShardIntent {
    package func encode(into bytes: inout [UInt8]) {
        BinaryWriter.append(UInt16(truncatingIfNeeded: self.plan.anchor), to: &bytes)
        BinaryWriter.append(UInt16(truncatingIfNeeded: self.plan.participants.count), to: &bytes)
        for participant in self.plan.participants {
            BinaryWriter.append(UInt16(truncatingIfNeeded: participant), to: &bytes)
        }
        self.write.encode(into: &bytes)
    }

    /// Appends the guard paths (`u32 n, n × path`); written only where the format says so.
    package func encodeGuards(into bytes: inout [UInt8]) {
        BinaryWriter.append(UInt32(truncatingIfNeeded: self.guards.count), to: &bytes)
        for path in self.guards { BinaryWriter.appendPath(path, to: &bytes) }
    }

    package mutating func readGuards(_ reader: inout BinaryReader) throws {
        let count = Int(try reader.readUInt32())
        var guards: [Path] = []
        for _ in 0..<count {
            guards.append(LogDecoding.path(try reader.readString(count: Int(try reader.readUInt16()))))
        }
        self.guards = guards
    }

    package init(reading reader: inout BinaryReader) throws {
        let anchor = Int(try reader.readUInt16())
        let count = Int(try reader.readUInt16())
        var participants: [Int] = []
        for _ in 0..<count { participants.append(Int(try reader.readUInt16())) }
        self.init(
            write: try ShardWrite(reading: &reader),
            plan: ShardTransactionPlan(anchor: anchor, participants: participants))
    }
}

extension ShardWrite {
    private static let originFlag: UInt16 = 0x8000

    package func encode(into bytes: inout [UInt8]) {
        let length = UInt16(truncatingIfNeeded: self.namespace.utf8.count)
        BinaryWriter.append(self.origin == nil ? length : length | Self.originFlag, to: &bytes)
        BinaryWriter.appendUTF8(of: self.namespace, to: &bytes)
        BinaryWriter.append(UInt64(bitPattern: self.now), to: &bytes)
        BinaryWriter.append(UInt32(truncatingIfNeeded: self.mutations.count), to: &bytes)
        // By index, each read where the array holds it (`encode(_:into:)` borrows it: iterated, or matched on a
        // copy, each mutation was copied out whole, its path and every part of its value retained, then released).
        for index in self.mutations.indices { Self.encode(self.mutations[index], into: &bytes) }
        if let origin = self.origin {
            bytes.append(UInt8(truncatingIfNeeded: origin.client.utf8.count))
            BinaryWriter.appendUTF8(of: origin.client, to: &bytes)
            BinaryWriter.append(origin.sequence, to: &bytes)
            BinaryWriter.append(origin.settledBelow, to: &bytes)
        }
    }

    /// Appends one mutation: its kind, path and value, read where it is held.
    private static func encode(_ mutation: borrowing Mutation, into bytes: inout [UInt8]) {
        switch mutation {
        case .set(let path, let value): Self.encode(kind: 1, path, value, into: &bytes)
        case .setPriority(let path, let value): Self.encode(kind: 2, path, value, into: &bytes)
        }
    }

    /// Appends one mutation: `kind`, its path, then its value's JSON after the value's length.
    private static func encode(
        kind: UInt8, _ path: borrowing Path, _ value: borrowing WriteValue, into bytes: inout [UInt8]
    ) {
        bytes.append(kind)
        BinaryWriter.appendPath(path, to: &bytes)
        // The value's text goes straight into `bytes`, after a length filled in once it is known.
        let lengthAt = bytes.count
        BinaryWriter.append(UInt64(0), to: &bytes)
        value.appendJSON(to: &bytes)
        BinaryWriter.write(UInt64(bytes.count - lengthAt - 8), at: lengthAt, in: &bytes)
    }

    package init(reading reader: inout BinaryReader) throws {
        let length = try reader.readUInt16()
        self.namespace = try reader.readString(count: Int(length & ~Self.originFlag))
        self.now = Int64(bitPattern: try reader.readUInt64())
        let count = Int(try reader.readUInt32())
        var mutations: [Mutation] = []
        mutations.reserveCapacity(min(count, 1 << 16))
        for _ in 0..<count {
            let kind = try reader.readUInt8()
            let path = LogDecoding.path(try reader.readString(count: Int(try reader.readUInt16())))
            let value = try LogDecoding.writeValue(try reader.readBytes(count: try reader.readUInt64()), at: path)
            switch kind {
            case 1: mutations.append(.set(path, value))
            case 2: mutations.append(.setPriority(path, value))
            default: throw CommitRecordError("unknown mutation kind \(kind)")
            }
        }
        self.mutations = mutations
        if length & Self.originFlag != 0 {
            let client = try reader.readString(count: Int(try reader.readUInt8()))
            let sequence = try reader.readUInt64()
            let settledBelow = try reader.readUInt64()
            do {
                self.origin = try WriteOrigin(client: client, sequence: sequence, settledBelow: settledBelow)
            } catch {
                throw CommitRecordError("a write's origin is damaged: \(error.message)")
            }
        }
    }
}
