/// One segment file of the log: `wal-<first lsn, 20 digits>.log`. The name alone fixes the LSN of its first record,
/// so an empty last segment still tells recovery where the log continues.
package struct WALSegment: Sendable, Hashable, Comparable {
    /// The LSN the segment's first record has (or will have).
    package let firstLSN: UInt64
    /// The full path of the file.
    package let path: String

    package init(firstLSN: UInt64, directory: String) {
        self.firstLSN = firstLSN
        self.path = directory + "/" + Self.fileName(firstLSN: firstLSN)
    }

    /// The file name of the segment starting at `firstLSN`.
    package static func fileName(firstLSN: UInt64) -> String {
        let digits = String(firstLSN)
        return "wal-" + String(repeating: "0", count: max(0, 20 - digits.count)) + digits + ".log"
    }

    /// The first LSN encoded in a segment file name, or nil when `name` is not a segment file.
    package static func firstLSN(fileName name: String) -> UInt64? {
        guard name.hasPrefix("wal-"), name.hasSuffix(".log") else { return nil }
        let digits = name.dropFirst(4).dropLast(4)
        guard digits.count == 20, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return UInt64(digits)
    }

    package static func < (lhs: WALSegment, rhs: WALSegment) -> Bool {
        lhs.firstLSN < rhs.firstLSN
    }
}
