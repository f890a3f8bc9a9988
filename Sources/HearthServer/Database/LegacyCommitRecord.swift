import HearthCore

/// A log record in the format Hearth wrote before shards had logs of their own (record version 1): one atomic
/// group of resolved mutations in one namespace. Recovery still reads such records from an older data directory;
/// nothing writes them any more.
///
/// Binary layout (little-endian): `u8 version=1`, `u16 namespace length`, namespace UTF-8, `u32 count`, then per
/// mutation `u8 kind` (1 = set, 2 = set priority), `u16 path length`, path UTF-8, `u64 value length`, value as
/// export-format JSON.
struct LegacyCommitRecord: Sendable {
    static let version: UInt8 = 1

    var namespace: String
    var mutations: [ResolvedMutation]

    /// Decodes a version-1 record.
    /// - Throws: `CommitRecordError` when the bytes are not such a record.
    init(decoding bytes: [UInt8]) throws {
        var reader = ByteReader(bytes: bytes)
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
            let path = ByteReader.path(try reader.readString(count: Int(try reader.readUInt16())))
            let value = try reader.readBytes(count: Int(try reader.readUInt64()))
            let node = try ByteReader.writeValue(value, at: path).node
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

    init(_ detail: String) { self.detail = detail }

    public var description: String {
        "Commit record is unreadable: \(self.detail). The data directory was written by a newer Hearth or is "
            + "damaged; restore it from a backup, or move the damaged file away to recover what precedes it."
    }
}

/// Reads little-endian fields from a byte array, throwing instead of trapping on short input.
struct ByteReader {
    let bytes: [UInt8]
    var offset = 0

    mutating func readUInt8() throws -> UInt8 {
        guard self.offset < self.bytes.count else { throw CommitRecordError("truncated at byte \(self.offset)") }
        defer { self.offset += 1 }
        return self.bytes[self.offset]
    }

    mutating func readUInt16() throws -> UInt16 { try self.readInteger() }
    mutating func readUInt32() throws -> UInt32 { try self.readInteger() }
    mutating func readUInt64() throws -> UInt64 { try self.readInteger() }

    private mutating func readInteger<T: FixedWidthInteger>() throws -> T {
        let size = MemoryLayout<T>.size
        guard self.bytes.count - self.offset >= size else {
            throw CommitRecordError("truncated at byte \(self.offset)")
        }
        var value: T = 0
        for index in 0..<size {
            value |= T(self.bytes[self.offset + index]) << (8 * index)
        }
        self.offset += size
        return value
    }

    mutating func readBytes(count: Int) throws -> [UInt8] {
        guard count >= 0, self.bytes.count - self.offset >= count else {
            throw CommitRecordError("truncated at byte \(self.offset)")
        }
        defer { self.offset += count }
        return Array(self.bytes[self.offset..<(self.offset + count)])
    }

    /// A logged value (JSON, server values as placeholders); damage is reported as a `CommitRecordError`.
    static func writeValue(_ bytes: [UInt8], at path: Path) throws(CommitRecordError) -> WriteValue {
        do {
            return try WriteValue.parseWrite(bytes, depth: 0)
        } catch {
            throw CommitRecordError("the value written at \(path) is not valid: \(error)")
        }
    }

    /// A path as logs store it: keys joined by `/`, no leading slash (already validated when it was written).
    static func path(_ text: String) -> Path {
        Path(keys: text.split(separator: "/").map { Key(unchecked: String($0)) })
    }

    mutating func readString(count: Int) throws -> String {
        String(decoding: try self.readBytes(count: count), as: UTF8.self)
    }
}
