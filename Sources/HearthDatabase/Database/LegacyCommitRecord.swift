package import HearthCore

/// A log record in the format Hearth wrote before shards had logs of their own (record version 1): one atomic
/// group of resolved mutations in one namespace. Recovery still reads such records from an older data directory;
/// nothing writes them any more.
///
/// Binary layout (little-endian): `u8 version=1`, `u16 namespace length`, namespace UTF-8, `u32 count`, then per
/// mutation `u8 kind` (1 = set, 2 = set priority), `u16 path length`, path UTF-8, `u64 value length`, value as
/// export-format JSON.
package struct LegacyCommitRecord: Sendable {
    static let version: UInt8 = 1

    var namespace: String
    var mutations: [ResolvedMutation]

    /// Decodes a version-1 record.
    /// - Throws: `CommitRecordError` for a wrong version or value, `BinaryDecodingError` when the bytes are cut
    ///   short (`ShardLogRecord` reports both as a `CommitRecordError`).
    init(decoding bytes: [UInt8]) throws {
        var reader = BinaryReader(bytes: bytes)
        guard try reader.readUInt8() == Self.version else {
            throw CommitRecordError("unknown commit record version")
        }
        let namespaceLength = Int(try reader.readUInt16())
        self.namespace = try reader.readString(count: namespaceLength)
        let count = Int(try reader.readUInt32())
        var mutations: [ResolvedMutation] = []
        mutations.reserveCapacity(min(count, 1 << 16))
        for _ in 0..<count {
            let kind = try reader.readUInt8()
            let path = LogDecoding.path(try reader.readString(count: Int(try reader.readUInt16())))
            let value = try reader.readBytes(count: try reader.readUInt64())
            let node = try LogDecoding.writeValue(value, at: path).node
            switch kind {
            case 1: mutations.append(.set(path, node))
            case 2: mutations.append(.setPriority(path, ResolvedMutation.priority(from: node)))
            default: throw CommitRecordError("unknown mutation kind \(kind)")
            }
        }
        self.mutations = mutations
    }
}

/// A log record or snapshot that cannot be decoded: the data directory is from a newer version or damaged.
/// Recovery stops rather than skip it.
public struct CommitRecordError: Error, Sendable, CustomStringConvertible {
    /// What is wrong and where.
    public let detail: String

    package init(_ detail: String) { self.detail = detail }

    init(_ error: BinaryDecodingError) { self.detail = error.detail }

    public var description: String {
        "Commit record is unreadable: \(self.detail). The data directory was written by a newer Hearth or is "
            + "damaged; restore it from a backup, or move the damaged file away to recover what precedes it."
    }
}

/// What log and snapshot decoders share beyond `BinaryReader`'s fields.
package enum LogDecoding {
    /// A logged value (JSON, server values as placeholders); damage is reported as a `CommitRecordError`.
    static func writeValue(_ bytes: [UInt8], at path: Path) throws(CommitRecordError) -> WriteValue {
        do {
            return try WriteValue.parseWrite(bytes, depth: 0)
        } catch {
            throw CommitRecordError("the value written at \(path) is not valid: \(error)")
        }
    }

    /// A path as logs store it: keys joined by `/`, no leading slash (already validated when it was written).
    package static func path(_ text: String) -> Path {
        var text = text
        return text.withUTF8 { bytes in
            var keys: [Key] = []
            var start = 0
            for end in 0...bytes.count where end == bytes.count || bytes[end] == UInt8(ascii: "/") {
                if end > start {
                    keys.append(
                        Key(
                            unchecked: String(
                                decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)))
                }
                start = end + 1
            }
            return Path(keys: keys)
        }
    }
}
