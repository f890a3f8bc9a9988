/// A Hearth release number, `MAJOR.MINOR.PATCH`, as peers compare them: which releases may run together in one
/// cluster is decided on these (`ReleaseRule`).
public struct HearthRelease: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let major: UInt16
    public let minor: UInt16
    public let patch: UInt16

    public init(major: UInt16, minor: UInt16, patch: UInt16) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// Reads `MAJOR.MINOR.PATCH` (each 0 to 65535); nil for anything else.
    public init?(parsing text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { ("0"..."9").contains($0) } }),
            let major = UInt16(parts[0]), let minor = UInt16(parts[1]), let patch = UInt16(parts[2])
        else { return nil }
        self.init(major: major, minor: minor, patch: patch)
    }

    public var description: String { "\(self.major).\(self.minor).\(self.patch)" }

    public static func < (lhs: HearthRelease, rhs: HearthRelease) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }
}
