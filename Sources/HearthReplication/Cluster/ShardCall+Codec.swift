import HearthCluster
import HearthCore
import HearthDatabase
import HearthWire

/// The binary forms of `ShardCall` and `ShardReply` (little-endian), built from the shard entry's own encodings:
///
/// ```
/// call:  u64 id, u16 shard, u8 command, then
///        1 write    ShardWrite, u32 n, n × (path, string hash) conditions
///        2 lock     u64 transaction, string namespace, u32 n, n × path
///        3 unlock   u64 transaction
///        4 prepare  u64 transaction, ShardIntent, u32 n, n × guard path, lock term
///        5 decide   u64 transaction, u8 commit, u8 has part, [ShardIntent], u32 n, n × (path, node), lock term
///        6 finish   u64 transaction, u8 commit
///        7 forget   u32 n, n × u64 transaction
///        8 confirm refusal  u64 term
///        9 claims   u32 n, n × u64 transaction
///       10 turn     TurnCommand (ShardCall+Turns.swift)
/// reply: u64 id, u8 outcome, then
///        1 appended          position, u32 n, n × resolved mutation
///        2 condition failed  u64 through
///        3 needs all shards
///        4 locked            u64 through, u64 term, u32 n, n × node
///        5 unlocked
///        6 prepared          position
///        7 not leader        u8 has leader, [string node]
///        8 failed            string message (bytes)
///        9 already decided   u8 commit, u8 has position, [position]
///       10 nothing to do
///       11 read lock lost
///       12 confirmed         u8 confirmed
///       13 duplicate         u64 through
///       14 claimed           u32 n, n × u64 transaction
///       15 turn admitted     u64 request
/// lock term: u8 has term, [u64 term] (the term of the transaction's read lock in the shard, when it read there)
/// position: u16 shard, u64 shard index, u64 raft index, u64 raft term
/// node: bytes of its export JSON (priorities kept); resolved mutation: u8 1 set, path, node | u8 2 set priority,
///       path, u8 0 none | 1 int i64 | 2 double bits u64 | 3 string
/// ```
extension ShardCall {
    package func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        BinaryWriter.append(self.id, to: &bytes)
        BinaryWriter.append(UInt16(truncatingIfNeeded: self.shard), to: &bytes)
        switch self.command {
        case .write(let write, let conditions):
            bytes.append(1)
            write.encode(into: &bytes)
            BinaryWriter.append(UInt32(truncatingIfNeeded: conditions.count), to: &bytes)
            for condition in conditions {
                BinaryWriter.appendPath(condition.path, to: &bytes)
                BinaryWriter.appendString(condition.expectedHash, to: &bytes)
            }
        case .lock(let transaction, let namespace, let paths):
            bytes.append(2)
            BinaryWriter.append(transaction.rawValue, to: &bytes)
            BinaryWriter.appendString(namespace, to: &bytes)
            BinaryWriter.append(UInt32(truncatingIfNeeded: paths.count), to: &bytes)
            for path in paths { BinaryWriter.appendPath(path, to: &bytes) }
        case .unlock(let transaction):
            bytes.append(3)
            BinaryWriter.append(transaction.rawValue, to: &bytes)
        case .prepare(let transaction, let intent, let readLockTerm):
            bytes.append(4)
            BinaryWriter.append(transaction.rawValue, to: &bytes)
            intent.encode(into: &bytes)
            intent.encodeGuards(into: &bytes)
            Self.encode(readLockTerm, into: &bytes)
        case .decide(let transaction, let commit, let part, let spineValues, let readLockTerm):
            bytes.append(5)
            BinaryWriter.append(transaction.rawValue, to: &bytes)
            bytes.append(commit ? 1 : 0)
            bytes.append(part == nil ? 0 : 1)
            part?.encode(into: &bytes)
            BinaryWriter.append(UInt32(truncatingIfNeeded: spineValues.count), to: &bytes)
            for (path, node) in spineValues.sorted(by: { $0.key < $1.key }) {
                BinaryWriter.appendPath(path, to: &bytes)
                BinaryWriter.appendBytes(node.jsonBytes(format: .export), to: &bytes)
            }
            Self.encode(readLockTerm, into: &bytes)
        case .finish(let transaction, let commit):
            bytes.append(6)
            BinaryWriter.append(transaction.rawValue, to: &bytes)
            bytes.append(commit ? 1 : 0)
        case .forget(let transactions):
            bytes.append(7)
            TransactionID.encode(transactions, into: &bytes)
        case .confirmRefusal(let term):
            bytes.append(8)
            BinaryWriter.append(term, to: &bytes)
        case .claims(let transactions):
            bytes.append(9)
            TransactionID.encode(transactions, into: &bytes)
        case .turn(let command):
            bytes.append(10)
            command.encode(into: &bytes)
        }
        return bytes
    }

    private static func encode(_ term: UInt64?, into bytes: inout [UInt8]) {
        bytes.append(term == nil ? 0 : 1)
        if let term { BinaryWriter.append(term, to: &bytes) }
    }

    private static func readTerm(_ reader: inout BinaryReader) throws -> UInt64? {
        try reader.readUInt8() == 1 ? try reader.readUInt64() : nil
    }

    /// Reads a call written by `encoded()`.
    /// - Throws: `BinaryDecodingError` or `CommitRecordError` naming what is damaged.
    package init(decoding bytes: [UInt8]) throws {
        var reader = BinaryReader(bytes: bytes)
        self.id = try reader.readUInt64()
        self.shard = Int(try reader.readUInt16())
        switch try reader.readUInt8() {
        case 1:
            let write = try ShardWrite(reading: &reader)
            var conditions: [WriteCondition] = []
            for _ in 0..<Int(try reader.readUInt32()) {
                conditions.append(WriteCondition(path: try reader.readPath(), expectedHash: try reader.readString()))
            }
            self.command = .write(write, conditions: conditions)
        case 2:
            let transaction = TransactionID(rawValue: try reader.readUInt64())
            let namespace = try reader.readString()
            let count = Int(try reader.readUInt32())
            var paths: [Path] = []
            for _ in 0..<count { paths.append(try reader.readPath()) }
            self.command = .lock(transaction, namespace: namespace, paths: paths)
        case 3:
            self.command = .unlock(TransactionID(rawValue: try reader.readUInt64()))
        case 4:
            let transaction = TransactionID(rawValue: try reader.readUInt64())
            var intent = try ShardIntent(reading: &reader)
            try intent.readGuards(&reader)
            self.command = .prepare(transaction, intent, readLockTerm: try Self.readTerm(&reader))
        case 5:
            let transaction = TransactionID(rawValue: try reader.readUInt64())
            let commit = try reader.readUInt8() == 1
            let part = try reader.readUInt8() == 1 ? try ShardIntent(reading: &reader) : nil
            let count = Int(try reader.readUInt32())
            var spineValues: [Path: Node] = [:]
            for _ in 0..<count {
                let path = try reader.readPath()
                spineValues[path] = try reader.readNode(at: path)
            }
            self.command = .decide(
                transaction, commit: commit, part: part, spineValues: spineValues,
                readLockTerm: try Self.readTerm(&reader))
        case 6:
            let transaction = TransactionID(rawValue: try reader.readUInt64())
            self.command = .finish(transaction, commit: try reader.readUInt8() == 1)
        case 7:
            self.command = .forget(try TransactionID.decodeList(from: &reader))
        case 8:
            self.command = .confirmRefusal(term: try reader.readUInt64())
        case 9:
            self.command = .claims(try TransactionID.decodeList(from: &reader))
        case 10:
            self.command = .turn(try TurnCommand(reading: &reader))
        case let kind:
            throw CommitRecordError("unknown shard call command \(kind)")
        }
    }
}

extension ShardReply {
    package func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        BinaryWriter.append(self.id, to: &bytes)
        switch self.outcome {
        case .appended(let position, let resolved):
            bytes.append(1)
            position.encode(into: &bytes)
            BinaryWriter.append(UInt32(truncatingIfNeeded: resolved.count), to: &bytes)
            for mutation in resolved { mutation.encode(into: &bytes) }
        case .conditionFailed(let through):
            bytes.append(2)
            BinaryWriter.append(through, to: &bytes)
        case .needsAllShards:
            bytes.append(3)
        case .locked(let read):
            bytes.append(4)
            BinaryWriter.append(read.through, to: &bytes)
            BinaryWriter.append(read.term, to: &bytes)
            BinaryWriter.append(UInt32(truncatingIfNeeded: read.nodes.count), to: &bytes)
            for node in read.nodes { BinaryWriter.appendBytes(node.jsonBytes(format: .export), to: &bytes) }
        case .unlocked:
            bytes.append(5)
        case .prepared(let position):
            bytes.append(6)
            position.encode(into: &bytes)
        case .notLeader(let leader):
            bytes.append(7)
            bytes.append(leader == nil ? 0 : 1)
            if let leader { BinaryWriter.appendString(leader.name, to: &bytes) }
        case .failed(let message):
            bytes.append(8)
            BinaryWriter.appendBytes(Array(message.utf8), to: &bytes)
        case .alreadyDecided(let commit, let position):
            bytes.append(9)
            bytes.append(commit ? 1 : 0)
            bytes.append(position == nil ? 0 : 1)
            position?.encode(into: &bytes)
        case .nothingToDo:
            bytes.append(10)
        case .readLockLost:
            bytes.append(11)
        case .confirmed(let isConfirmed):
            bytes.append(12)
            bytes.append(isConfirmed ? 1 : 0)
        case .duplicate(let through):
            bytes.append(13)
            BinaryWriter.append(through, to: &bytes)
        case .claimed(let transactions):
            bytes.append(14)
            TransactionID.encode(transactions, into: &bytes)
        case .turnAdmitted(let request):
            bytes.append(15)
            BinaryWriter.append(request, to: &bytes)
        }
        return bytes
    }

    /// Reads a reply written by `encoded()`.
    /// - Throws: `BinaryDecodingError` or `CommitRecordError` naming what is damaged.
    package init(decoding bytes: [UInt8]) throws {
        var reader = BinaryReader(bytes: bytes)
        self.id = try reader.readUInt64()
        switch try reader.readUInt8() {
        case 1:
            let position = try ShardLogPosition(reading: &reader)
            let count = Int(try reader.readUInt32())
            var resolved: [ResolvedMutation] = []
            for _ in 0..<count { resolved.append(try ResolvedMutation(reading: &reader)) }
            self.outcome = .appended(position, resolved)
        case 2:
            self.outcome = .conditionFailed(through: try reader.readUInt64())
        case 3:
            self.outcome = .needsAllShards
        case 4:
            let through = try reader.readUInt64()
            let term = try reader.readUInt64()
            let count = Int(try reader.readUInt32())
            var nodes: [Node] = []
            for _ in 0..<count { nodes.append(try reader.readNode(at: .root)) }
            self.outcome = .locked(ShardReadLock(nodes: nodes, through: through, term: term))
        case 5:
            self.outcome = .unlocked
        case 6:
            self.outcome = .prepared(try ShardLogPosition(reading: &reader))
        case 7:
            self.outcome = .notLeader(leader: try reader.readUInt8() == 1 ? NodeID(try reader.readString()) : nil)
        case 8:
            self.outcome = .failed(String(decoding: try reader.readLengthPrefixedBytes(), as: UTF8.self))
        case 9:
            let commit = try reader.readUInt8() == 1
            let position = try reader.readUInt8() == 1 ? try ShardLogPosition(reading: &reader) : nil
            self.outcome = .alreadyDecided(commit: commit, at: position)
        case 10:
            self.outcome = .nothingToDo
        case 11:
            self.outcome = .readLockLost
        case 12:
            self.outcome = .confirmed(try reader.readUInt8() == 1)
        case 13:
            self.outcome = .duplicate(through: try reader.readUInt64())
        case 14:
            self.outcome = .claimed(try TransactionID.decodeList(from: &reader))
        case 15:
            self.outcome = .turnAdmitted(request: try reader.readUInt64())
        case let kind:
            throw CommitRecordError("unknown shard reply outcome \(kind)")
        }
    }
}

extension ShardLogPosition {
    fileprivate func encode(into bytes: inout [UInt8]) {
        BinaryWriter.append(UInt16(truncatingIfNeeded: self.shard), to: &bytes)
        BinaryWriter.append(self.index, to: &bytes)
        BinaryWriter.append(self.sequence, to: &bytes)
        BinaryWriter.append(self.term, to: &bytes)
    }

    fileprivate init(reading reader: inout BinaryReader) throws {
        self.init(
            shard: Int(try reader.readUInt16()), index: try reader.readUInt64(), sequence: try reader.readUInt64(),
            term: try reader.readUInt64())
    }
}

extension ResolvedMutation {
    fileprivate func encode(into bytes: inout [UInt8]) {
        switch self {
        case .set(let path, let node):
            bytes.append(1)
            BinaryWriter.appendPath(path, to: &bytes)
            BinaryWriter.appendBytes(node.jsonBytes(format: .export), to: &bytes)
        case .setPriority(let path, let priority):
            bytes.append(2)
            BinaryWriter.appendPath(path, to: &bytes)
            switch priority {
            case nil:
                bytes.append(0)
            case .int(let value)?:
                bytes.append(1)
                BinaryWriter.append(UInt64(bitPattern: value), to: &bytes)
            case .double(let value)?:
                bytes.append(2)
                BinaryWriter.append(value.bitPattern, to: &bytes)
            case .string(let value)?:
                bytes.append(3)
                BinaryWriter.appendBytes(Array(value.utf8), to: &bytes)
            }
        }
    }

    fileprivate init(reading reader: inout BinaryReader) throws {
        let kind = try reader.readUInt8()
        let path = try reader.readPath()
        switch kind {
        case 1:
            self = .set(path, try reader.readNode(at: path))
        case 2:
            let priority: Priority?
            switch try reader.readUInt8() {
            case 0: priority = nil
            case 1: priority = .int(Int64(bitPattern: try reader.readUInt64()))
            case 2: priority = .double(Double(bitPattern: try reader.readUInt64()))
            case 3: priority = .string(String(decoding: try reader.readLengthPrefixedBytes(), as: UTF8.self))
            case let tag: throw CommitRecordError("unknown priority tag \(tag)")
            }
            self = .setPriority(path, priority)
        default:
            throw CommitRecordError("unknown resolved mutation kind \(kind)")
        }
    }
}

extension BinaryReader {
    /// A path written by `BinaryWriter.appendPath`.
    fileprivate mutating func readPath() throws -> Path {
        LogDecoding.path(try self.readString())
    }

    /// A node written as its export JSON, which sits at `path` (for the depth rule).
    fileprivate mutating func readNode(at path: Path) throws -> Node {
        let json = try self.readLengthPrefixedBytes()
        do {
            return try WriteValue.parseWrite(json, depth: path.count).node
        } catch {
            throw CommitRecordError("a node sent for \(path) is not valid export JSON: \(error)")
        }
    }
}
