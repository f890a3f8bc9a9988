/// A location in the JSON tree: a list of keys from the root.
///
/// Paths are parsed from strings like `/users/ada/name`; empty segments are ignored, as Firebase does.
public struct Path: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The keys from the root down.
    public let keys: [Key]

    /// The deepest path Firebase accepts, in segments.
    public static let maximumDepth = 32
    /// The longest path Firebase accepts, in UTF-8 bytes (segments plus separators).
    public static let maximumByteLength = 768

    public static let root = Path(keys: [])

    public init(keys: [Key]) {
        self.keys = keys
    }

    /// Parses and validates a slash-separated path.
    /// - Throws: `PathError` naming the offending key, or when the path is deeper than 32 or longer than 768 bytes.
    public init(validating string: String) throws(PathError) {
        var keys: [Key] = []
        for segment in string.split(separator: "/", omittingEmptySubsequences: true) {
            keys.append(try Key(validating: String(segment)))
        }
        try Path.checkLimits(keys)
        self.keys = keys
    }

    /// Checks depth and byte length (used when paths are built by joining).
    public static func checkLimits(_ keys: [Key]) throws(PathError) {
        if keys.count > maximumDepth {
            throw PathError(
                .pathTooDeep,
                "Path is \(keys.count) levels deep; Firebase allows at most \(maximumDepth)."
            )
        }
        var bytes = max(0, keys.count - 1)
        for key in keys { bytes += key.string.utf8.count }
        if bytes > maximumByteLength {
            throw PathError(
                .pathTooLong,
                "Path is \(bytes) bytes long; Firebase allows at most \(maximumByteLength)."
            )
        }
    }

    /// Whether a path of `depth` keys holding `keyBytes` UTF-8 bytes together is within the limits `checkLimits`
    /// enforces, for a caller that counted them as it split the keys.
    public static func fits(depth: Int, keyBytes: Int) -> Bool {
        depth <= Self.maximumDepth && keyBytes + max(0, depth - 1) <= Self.maximumByteLength
    }

    public var isRoot: Bool { self.keys.isEmpty }
    public var count: Int { self.keys.count }
    public var first: Key? { self.keys.first }
    public var last: Key? { self.keys.last }

    /// The path without its last key; the root's parent is `nil`.
    public var parent: Path? {
        self.keys.isEmpty ? nil : Path(keys: Array(self.keys.dropLast()))
    }

    /// The path without its first key.
    public var droppingFirst: Path { Path(keys: Array(self.keys.dropFirst())) }

    public func appending(_ key: Key) -> Path { Path(keys: self.keys + [key]) }
    public func appending(_ path: Path) -> Path { Path(keys: self.keys + path.keys) }

    /// True when `self` equals `other` or lies above it.
    public func contains(_ other: Path) -> Bool {
        guard self.keys.count <= other.keys.count else { return false }
        // Deepest key first: sibling paths (a list's children, a lock table's entries) differ there.
        for index in self.keys.indices.reversed() where self.keys[index] != other.keys[index] {
            return false
        }
        return true
    }

    /// `other` relative to `self`, or `nil` when `self` does not contain `other`.
    public func relativePath(to other: Path) -> Path? {
        guard self.contains(other) else { return nil }
        return Path(keys: Array(other.keys.dropFirst(self.keys.count)))
    }

    /// The deepest path containing both.
    public func commonAncestor(with other: Path) -> Path {
        var shared: [Key] = []
        for (left, right) in zip(self.keys, other.keys) {
            guard left == right else { break }
            shared.append(left)
        }
        return Path(keys: shared)
    }

    /// `/a/b` style; the root is `/`.
    public var description: String {
        self.keys.isEmpty ? "/" : "/" + self.keys.map(\.string).joined(separator: "/")
    }

    /// `a/b` style without a leading slash, as the wire protocol's server pushes use; the root is `""`.
    public var slashless: String { self.keys.map(\.string).joined(separator: "/") }

    /// Orders paths key by key, shorter first on a shared prefix.
    public static func < (lhs: Path, rhs: Path) -> Bool {
        for (left, right) in zip(lhs.keys, rhs.keys) where left != right {
            return left < right
        }
        return lhs.keys.count < rhs.keys.count
    }
}
