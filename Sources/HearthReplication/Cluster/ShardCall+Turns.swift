import HearthCluster
import HearthCore
import HearthDatabase
import HearthWire

extension ShardCall {
    /// What one node's `ClusterConditionalWriteTurns` asks of the node leading a location's shard, whose gate keeps
    /// that location's line. Callers are the asking node's connection numbers; the leader tells them apart by node.
    enum TurnCommand: Sendable, Equatable {
        /// Wait for a compare-and-set's turn; answered `turnAdmitted` once it may write.
        case admit(caller: UInt64, target: ConditionalWriteScheduler.Target, etag: String)
        /// The compare-and-set that was admitted as `request` ended so.
        case answered(request: UInt64, ConditionalWriteScheduler.Answer)
        /// The caller read the location with its ETag: a new transaction begins.
        case read(caller: UInt64, target: ConditionalWriteScheduler.Target)
        /// The caller's connection closed.
        case callerClosed(UInt64)
    }
}

/// The binary form of a `TurnCommand` (inside a shard call, command 10):
///
/// ```
/// u8 1 admit      u64 caller, string namespace, string path, string etag
/// u8 2 answered   u64 request, u8 1 committed | 2 condition failed, string etag | 3 failed
/// u8 3 read       u64 caller, string namespace, string path
/// u8 4 closed     u64 caller
/// ```
extension ShardCall.TurnCommand {
    func encode(into bytes: inout [UInt8]) {
        switch self {
        case .admit(let caller, let target, let etag):
            bytes.append(1)
            BinaryWriter.append(caller, to: &bytes)
            Self.encode(target, into: &bytes)
            BinaryWriter.appendString(etag, to: &bytes)
        case .answered(let request, let answer):
            bytes.append(2)
            BinaryWriter.append(request, to: &bytes)
            switch answer {
            case .committed:
                bytes.append(1)
            case .conditionFailed(let etag):
                bytes.append(2)
                BinaryWriter.appendString(etag, to: &bytes)
            case .failed:
                bytes.append(3)
            }
        case .read(let caller, let target):
            bytes.append(3)
            BinaryWriter.append(caller, to: &bytes)
            Self.encode(target, into: &bytes)
        case .callerClosed(let caller):
            bytes.append(4)
            BinaryWriter.append(caller, to: &bytes)
        }
    }

    /// Reads a command written by `encode(into:)`.
    /// - Throws: `BinaryDecodingError` or `CommitRecordError` naming what is damaged.
    init(reading reader: inout BinaryReader) throws {
        switch try reader.readUInt8() {
        case 1:
            let caller = try reader.readUInt64()
            let target = try Self.readTarget(&reader)
            self = .admit(caller: caller, target: target, etag: try reader.readString())
        case 2:
            let request = try reader.readUInt64()
            switch try reader.readUInt8() {
            case 1: self = .answered(request: request, .committed)
            case 2: self = .answered(request: request, .conditionFailed(etag: try reader.readString()))
            case 3: self = .answered(request: request, .failed)
            case let answer: throw CommitRecordError("unknown compare-and-set answer \(answer)")
            }
        case 3:
            let caller = try reader.readUInt64()
            self = .read(caller: caller, target: try Self.readTarget(&reader))
        case 4:
            self = .callerClosed(try reader.readUInt64())
        case let kind:
            throw CommitRecordError("unknown turn command \(kind)")
        }
    }

    private static func encode(_ target: ConditionalWriteScheduler.Target, into bytes: inout [UInt8]) {
        BinaryWriter.appendString(target.namespace, to: &bytes)
        BinaryWriter.appendPath(target.path, to: &bytes)
    }

    private static func readTarget(_ reader: inout BinaryReader) throws -> ConditionalWriteScheduler.Target {
        let namespace = try reader.readString()
        return ConditionalWriteScheduler.Target(namespace: namespace, path: LogDecoding.path(try reader.readString()))
    }
}
