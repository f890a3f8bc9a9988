import HearthCore

/// The layout of a backup file (`hearth backup`): a text header (`BackupHeader`), the trees as a version 4 snapshot
/// holds them (`SnapshotTrees`, ending with their end record), then a fixed-size trailer:
/// ```
/// hearth-backup-end<tab><payload length, 20 decimal digits><tab><SHA-256 of the payload, 64 hex digits><newline>
/// ```
/// where the payload is every byte before the trailer. A file cut short anywhere no longer ends with a trailer that
/// matches its length, and a changed byte no longer matches the digest, so both are refused before anything is read
/// from it.
public enum BackupFormat {
    /// The first line: the magic and the format version.
    static let magic = "hearth-backup \(Self.version)"
    /// The format this release writes and reads.
    static let version = 1
    /// The magic's first word, shared by every format version.
    static let magicPrefix = "hearth-backup "
    /// What the trailer starts with.
    static let trailerMagic = "hearth-backup-end"
    /// The trailer's length: magic, tab, 20 digits, tab, 64 hex digits, newline.
    static let trailerLength = 17 + 1 + 20 + 1 + 64 + 1

    /// The trailer for a payload of `length` bytes whose SHA-256 is `digest`.
    static func trailer(length: UInt64, digest: [UInt8]) -> [UInt8] {
        let digits = String(length)
        let padded = String(repeating: "0", count: max(0, 20 - digits.count)) + digits
        return Array("\(Self.trailerMagic)\t\(padded)\t\(Self.hex(digest))\n".utf8)
    }

    /// `bytes` as lowercase hexadecimal.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
