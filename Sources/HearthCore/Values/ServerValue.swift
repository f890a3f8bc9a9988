/// A placeholder the server replaces when it applies a write: Firebase's `{".sv": …}`.
public enum ServerValue: Sendable, Hashable {
    /// `{".sv": "timestamp"}`: the server's clock in milliseconds since the Unix epoch.
    case timestamp
    /// `{".sv": {"increment": n}}`: the current number plus `n` (an `.int` or `.double` leaf value).
    case increment(LeafValue)
}

/// Where a server value sits inside a write, relative to the write's path.
public struct ServerValuePlaceholder: Sendable, Hashable {
    /// The location of the placeholder below the write path (the root for a write that is itself a placeholder).
    public var path: Path
    public var value: ServerValue
    /// True when the placeholder is the priority of the node at `path`, not its value.
    public var isPriority: Bool

    public init(path: Path, value: ServerValue, isPriority: Bool) {
        self.path = path
        self.value = value
        self.isPriority = isPriority
    }
}

/// A value parsed from a client's write, before the server resolves its server values.
///
/// `node` holds the write with every placeholder location left empty; `placeholders` says what to put there.
/// `pendingPriorities` holds the priorities of nodes that are empty in `node` only because all their content is
/// placeholders (such as `{".value": {".sv": "timestamp"}, ".priority": 1}`); they apply once the placeholders are
/// filled in. See `WriteValue+Parsing.swift` and `WriteValue+Resolution.swift`.
public struct WriteValue: Sendable {
    public var node: Node
    public var placeholders: [ServerValuePlaceholder]
    /// Priorities to set, after resolving placeholders, on nodes (relative to the write path) that are empty in `node`.
    public var pendingPriorities: [Path: Priority]

    public init(node: Node, placeholders: [ServerValuePlaceholder] = [], pendingPriorities: [Path: Priority] = [:]) {
        self.node = node
        self.placeholders = placeholders
        self.pendingPriorities = pendingPriorities
    }

    public var hasServerValues: Bool { !self.placeholders.isEmpty }

    /// The JSON text this value was parsed from, when the caller keeps it: a log can store it as is instead of
    /// encoding `node` again. Only meaningful when there are no server values to resolve.
    public var sourceJSON: [UInt8]?
}
