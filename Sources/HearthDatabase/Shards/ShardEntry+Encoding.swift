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
            Self.appendHead(kind: intent.guards.isEmpty ? 2 : 6, transaction, to: &bytes)
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
            Self.appendHead(kind: 7, transaction, to: &bytes)
            part.encode(into: &bytes)
        }
    }

    /// Appends an entry's kind and transaction, in one piece.
    private static func appendHead(kind: UInt8, _ transaction: TransactionID, to bytes: inout [UInt8]) {
        BinaryWriter.append(count: 1 + 8, to: &bytes) { cursor in
            cursor.write(kind)
            cursor.write(transaction.rawValue)
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
        BinaryWriter.append(count: 2 + 2 + 2 * self.plan.participants.count, to: &bytes) { cursor in
            cursor.write(UInt16(truncatingIfNeeded: self.plan.anchor))
            cursor.write(UInt16(truncatingIfNeeded: self.plan.participants.count))
            for participant in self.plan.participants { cursor.write(UInt16(truncatingIfNeeded: participant)) }
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

    /// Appends the write's bytes: its fields, each mutation's (with its value's text when that is short) and its
    /// origin's each in one piece (`BinaryWriter.append(count:to:_:)`).
    package func encode(into bytes: inout [UInt8]) {
        let namespaceCount = self.namespace.utf8.count
        BinaryWriter.append(count: 2 + namespaceCount + 8 + 4, to: &bytes) { cursor in
            let length = UInt16(truncatingIfNeeded: namespaceCount)
            cursor.write(self.origin == nil ? length : length | Self.originFlag)
            cursor.writeUTF8(of: self.namespace)
            cursor.write(UInt64(bitPattern: self.now))
            cursor.write(UInt32(truncatingIfNeeded: self.mutations.count))
        }
        // Each mutation is read where the array's buffer holds it, handed over `inout` (never written): borrowed from
        // that memory, or read through a pointer, it was copied first (its path and value retained, then released),
        // since the appends between could, as far as the compiler knows, change it; an `inout` argument is the
        // callee's alone while it runs, so it is read where it lies. The list may be shared (the applied change keeps
        // it), so it is not made mutable, which would copy it whole.
        self.mutations.withUnsafeBufferPointer { mutations in
            guard let first = mutations.baseAddress else { return }
            let mutation = UnsafeMutablePointer(mutating: first)
            for index in mutations.indices { Self.encode(inPlace: &mutation[index], into: &bytes) }
        }
        if let origin = self.origin {
            let clientCount = origin.client.utf8.count
            BinaryWriter.append(count: 1 + clientCount + 8 + 8, to: &bytes) { cursor in
                cursor.write(UInt8(truncatingIfNeeded: clientCount))
                cursor.writeUTF8(of: origin.client)
                cursor.write(origin.sequence)
                cursor.write(origin.settledBelow)
            }
        }
    }

    /// `encode(_:into:)` on a mutation where it is stored, never written: `inout` only so that it is read in place,
    /// without a copy. (Switched on here rather than handed on, the `inout` mutation was copied again.)
    private static func encode(inPlace mutation: inout Mutation, into bytes: inout [UInt8]) {
        Self.encode(mutation, into: &bytes)
    }

    /// Appends one mutation: its kind, path and value.
    private static func encode(_ mutation: Mutation, into bytes: inout [UInt8]) {
        switch mutation {
        case .set(let path, let value): Self.encode(kind: 1, path, value, into: &bytes)
        case .setPriority(let path, let value): Self.encode(kind: 2, path, value, into: &bytes)
        }
    }

    /// Appends one mutation: `kind`, its path, then its value's JSON after the value's length. A short value's text
    /// goes in one piece with the rest; any other's straight into `bytes` after them, its length filled in once it
    /// is known.
    private static func encode(kind: UInt8, _ path: Path, _ value: WriteValue, into bytes: inout [UInt8]) {
        let pathCount = BinaryWriter.length(of: path)
        let text = value.shortJSON
        let textCount = text?.count ?? 0
        BinaryWriter.append(count: 1 + 2 + pathCount + 8 + textCount, to: &bytes) { cursor in
            cursor.write(kind)
            cursor.write(UInt16(truncatingIfNeeded: pathCount))
            cursor.writePath(path)
            cursor.write(UInt64(textCount))
            text?.write(to: &cursor)
        }
        guard text == nil else { return }
        let start = bytes.count
        value.appendJSON(to: &bytes)
        BinaryWriter.write(UInt64(bytes.count - start), at: start - 8, in: &bytes)
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
        self.origin = nil
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
