/// The framing of a snapshot file, so writer and reader agree byte for byte.
///
/// Layout, little-endian: header `["HRTHSNAP"][u64 lsn]`, the payload, then trailer
/// `[u64 payload length][u32 CRC-32C of header ‖ payload]["SEND"]`. A file without a valid trailer is incomplete.
enum SnapshotFormat {
    static let headerMagic: [UInt8] = Array("HRTHSNAP".utf8)
    static let trailerMagic: [UInt8] = Array("SEND".utf8)
    static let headerSize = 16
    static let trailerSize = 16

    static func header(lsn: UInt64) -> [UInt8] {
        var bytes = Self.headerMagic
        withUnsafeBytes(of: lsn.littleEndian) { bytes.append(contentsOf: $0) }
        return bytes
    }

    static func trailer(payloadCount: UInt64, checksum: UInt32) -> [UInt8] {
        var bytes: [UInt8] = []
        withUnsafeBytes(of: payloadCount.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: checksum.littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: Self.trailerMagic)
        return bytes
    }

    /// The file name of the snapshot through `lsn`.
    static func fileName(lsn: UInt64) -> String {
        let digits = String(lsn)
        return "snapshot-" + String(repeating: "0", count: max(0, 20 - digits.count)) + digits + ".snap"
    }

    /// The LSN in a snapshot file name (`temporary` selects the `.snap.tmp` names of unfinished writes).
    static func lsn(fileName name: String, temporary: Bool = false) -> UInt64? {
        let suffix = temporary ? ".snap.tmp" : ".snap"
        guard name.hasPrefix("snapshot-"), name.hasSuffix(suffix) else { return nil }
        let digits = name.dropFirst(9).dropLast(suffix.count)
        guard digits.count == 20, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return UInt64(digits)
    }
}
