public import HearthCore
import HearthWire

/// The unit the write-ahead log stores: one atomic group of resolved mutations in one namespace.
///
/// A single-shard write and a multi-shard transaction both become exactly one record, so a record on disk is the
/// commit decision: recovery replays whole records or nothing.
///
/// Binary layout (little-endian): `u8 version=1`, `u16 namespace length`, namespace UTF-8, `u32 count`, then per
/// mutation `u8 kind` (1 = set, 2 = set priority), `u16 path length`, path UTF-8, `u64 value length`, value as
/// export-format JSON.
public struct CommitRecord: Sendable {
    public var namespace: String
    public var mutations: [ResolvedMutation]
    /// Per mutation, JSON text equal to its value under the write rules (the client's own body), used instead of
    /// encoding the node again; `nil` entries are encoded.
    var sources: [[UInt8]?]

    public init(namespace: String, mutations: [ResolvedMutation], sources: [[UInt8]?] = []) {
        self.namespace = namespace
        self.mutations = mutations
        self.sources = sources
    }

    /// Encodes the record for the log.
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = [1]
        Self.append(UInt16(truncatingIfNeeded: self.namespace.utf8.count), to: &bytes)
        bytes.append(contentsOf: self.namespace.utf8)
        Self.append(UInt32(truncatingIfNeeded: self.mutations.count), to: &bytes)
        for (index, mutation) in self.mutations.enumerated() {
            let value: [UInt8]
            switch mutation {
            case .set(let path, let node):
                bytes.append(1)
                Self.appendPath(path, to: &bytes)
                if index < self.sources.count, let source = self.sources[index] {
                    value = source
                } else {
                    value = node.jsonBytes(format: .export, pretty: false)
                }
            case .setPriority(let path, let priority):
                bytes.append(2)
                Self.appendPath(path, to: &bytes)
                value = Node.priorityJSON(priority)
            }
            Self.append(UInt64(value.count), to: &bytes)
            bytes.append(contentsOf: value)
        }
        return bytes
    }

    /// Decodes a record written by `encoded()`.
    /// - Throws: `CommitRecordError` when the bytes are not a record this version understands.
    public init(decoding bytes: [UInt8]) throws {
        var reader = ByteReader(bytes: bytes)
        guard try reader.readUInt8() == 1 else {
            throw CommitRecordError("unknown commit record version")
        }
        let namespaceLength = Int(try reader.readUInt16())
        self.namespace = try reader.readString(count: namespaceLength)
        let count = Int(try reader.readUInt32())
        var mutations: [ResolvedMutation] = []
        mutations.reserveCapacity(min(count, 1 << 16))
        for _ in 0..<count {
            let kind = try reader.readUInt8()
            let path = Path(
                keys: try reader.readString(count: Int(try reader.readUInt16()))
                    .split(separator: "/").map { Key(unchecked: String($0)) })
            let value = try reader.readBytes(count: Int(try reader.readUInt64()))
            let node = try WriteValue.parseWrite(value, depth: 0).node
            switch kind {
            case 1: mutations.append(.set(path, node))
            case 2: mutations.append(.setPriority(path, ResolvedMutation.priority(from: node)))
            default: throw CommitRecordError("unknown mutation kind \(kind)")
            }
        }
        self.mutations = mutations
        self.sources = []
    }

    /// The reusable JSON text of each mutation's value, for `init(namespace:mutations:sources:)`.
    static func sources(of mutations: [Mutation]) -> [[UInt8]?] {
        mutations.map { mutation in
            guard case .set(_, let value) = mutation, !value.hasServerValues else { return nil }
            return value.sourceJSON
        }
    }

    private static func appendPath(_ path: Path, to bytes: inout [UInt8]) {
        let text = path.slashless
        Self.append(UInt16(truncatingIfNeeded: text.utf8.count), to: &bytes)
        bytes.append(contentsOf: text.utf8)
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
}

/// A log record that cannot be decoded: the data directory is from another version or damaged.
public struct CommitRecordError: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = "Commit record is unreadable: \(description)." }
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

    mutating func readString(count: Int) throws -> String {
        String(decoding: try self.readBytes(count: count), as: UTF8.self)
    }
}
