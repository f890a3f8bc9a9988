import HearthCore
import HearthSystem

/// Checks a backup file as its bytes go by, in pieces of any size: the magic and format version as soon as the
/// first line is in, the header once its `B` line is, and at the end the trailer against the length and SHA-256 of
/// everything before it. `hearth backup` runs it over the bytes it receives (before it renames the file into
/// place) and `hearth restore` over the file (before it writes anything), so neither needs the file twice in
/// memory.
public struct BackupChecker: Sendable {
    /// The most header bytes accepted (the namespace lines are its only unbounded part).
    static let maximumHeaderBytes = 16 << 20

    private var digest = SHA256()
    /// The newest bytes, which may be the trailer and so are not hashed yet.
    private var tail: [UInt8] = []
    /// The first bytes, until the header is read.
    private var head: [UInt8] = []
    /// Every byte fed so far.
    public private(set) var count: UInt64 = 0
    /// The header, once its `B` line has arrived.
    public private(set) var header: BackupHeader?
    /// Where the trees begin: the offset of the header's `B` line.
    public private(set) var treesOffset: UInt64 = 0

    public init() {}

    /// Takes the next bytes of the file.
    /// - Throws: `BackupFileError` as soon as the bytes are not a backup this release reads.
    public mutating func feed(_ bytes: some Collection<UInt8>) throws(BackupFileError) {
        self.count += UInt64(bytes.count)
        if self.header == nil { try self.readHeader(bytes) }
        let keep = BackupFormat.trailerLength
        if bytes.count >= keep {
            self.digest.update(self.tail)
            self.digest.update(bytes.dropLast(keep))
            self.tail = Array(bytes.suffix(keep))
        } else {
            self.tail.append(contentsOf: bytes)
            if self.tail.count > keep {
                self.digest.update(self.tail.prefix(self.tail.count - keep))
                self.tail.removeFirst(self.tail.count - keep)
            }
        }
    }

    /// Checks the end of the file: a header, a trailer, the length and the digest.
    /// - Returns: the header.
    /// - Throws: `BackupFileError` saying what is wrong: cut short, damaged, or not a backup.
    public mutating func finish() throws(BackupFileError) -> BackupHeader {
        guard let header = self.header else {
            throw BackupFileError(
                "the file ends (after \(self.count) bytes) before its header does: it is cut short, or not a backup")
        }
        let trailer = String(decoding: self.tail, as: UTF8.self)
        let fields = trailer.dropLast().split(separator: "\t", omittingEmptySubsequences: false)
        let payload = self.count - UInt64(self.tail.count)
        guard self.tail.count == BackupFormat.trailerLength, trailer.hasSuffix("\n"), fields.count == 3,
            fields[0] == BackupFormat.trailerMagic, let length = UInt64(fields[1])
        else {
            throw BackupFileError(
                "the file is cut short or damaged: its last \(BackupFormat.trailerLength) bytes are not the backup's "
                    + "trailer (\(self.count) bytes in all; a complete backup ends with \"\(BackupFormat.trailerMagic)\" "
                    + "and its checksum)")
        }
        guard length == payload else {
            throw BackupFileError(
                "the file is damaged: its trailer says \(length) bytes come before it, but \(payload) do")
        }
        let digest = BackupFormat.hex(self.digest.finalize())
        guard digest == fields[2] else {
            throw BackupFileError(
                "the file is damaged: the SHA-256 of its \(payload) bytes is \(digest), but its trailer says "
                    + "\(fields[2])")
        }
        return header
    }

    /// Collects the first bytes until the header is complete, checking the magic as soon as it can.
    private mutating func readHeader(_ bytes: some Collection<UInt8>) throws(BackupFileError) {
        let room = Self.maximumHeaderBytes + 1 - self.head.count
        self.head.append(contentsOf: bytes.prefix(room))
        let prefix = Array(BackupFormat.magicPrefix.utf8)
        let known = min(self.head.count, prefix.count)
        guard self.head.prefix(known).elementsEqual(prefix.prefix(known)) else {
            let start = String(decoding: self.head.prefix(24), as: UTF8.self)
            throw BackupFileError(
                "this is not a Hearth backup: it starts with \"\(start)\", not \"\(BackupFormat.magicPrefix)…\"")
        }
        guard let firstEnd = self.head.firstIndex(of: UInt8(ascii: "\n")) else {
            if self.head.count > 64 { throw BackupFileError("this is not a Hearth backup: its first line is too long") }
            return
        }
        let first = String(decoding: self.head[..<firstEnd], as: UTF8.self)
        guard first == BackupFormat.magic else {
            throw BackupFileError(
                "the file is a Hearth backup of format \"\(first.dropFirst(prefix.count))\"; this release (\(HearthVersion.release)) reads format \(BackupFormat.version)"
            )
        }
        let marker = Array("\n\(SnapshotTrees.marker)\n".utf8)
        guard let end = Self.find(marker, in: self.head, from: max(0, self.head.count - bytes.count - marker.count))
        else {
            if self.head.count > Self.maximumHeaderBytes {
                throw BackupFileError(
                    "the backup's header is longer than \(Self.maximumHeaderBytes) bytes: it is damaged")
            }
            return
        }
        let text = end > firstEnd ? String(decoding: self.head[(firstEnd + 1)..<end], as: UTF8.self) : ""
        let lines = text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false)
        self.header = try BackupHeader(lines: lines)
        self.treesOffset = UInt64(end + 1)
        self.head = []
    }

    /// Where `needle` first occurs in `bytes` at or after `first` (the bytes before were searched already).
    private static func find(_ needle: [UInt8], in bytes: [UInt8], from first: Int) -> Int? {
        guard bytes.count - first >= needle.count else { return nil }
        for start in first...(bytes.count - needle.count) where bytes[start] == needle[0] {
            if bytes[start..<(start + needle.count)].elementsEqual(needle) { return start }
        }
        return nil
    }
}
