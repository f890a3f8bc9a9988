public import HearthCore

/// A value a rule expression computes: JSON-like scalars and objects (`auth`, `query`), arrays, regular
/// expressions, and snapshots of the data (`root`, `data`, `newData` and what their methods return).
public enum RuleValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case object([JSONKey: RuleValue])
    case array([RuleValue])
    case regex(RuleRegex)
    case snapshot(RuleSnapshot)

    /// A JSON value as a rule sees it (`auth.token` claims, query parameters).
    public init(json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .int(let value): self = .number(Double(value))
        case .double(let value): self = .number(value)
        case .string(let value): self = .string(value)
        case .array(let elements): self = .array(elements.map(RuleValue.init(json:)))
        case .object(let members): self = .object(members.mapValues(RuleValue.init(json:)))
        }
    }

    /// A leaf as a rule sees it.
    init(leaf: LeafValue) {
        switch leaf {
        case .bool(let value): self = .bool(value)
        case .int(let value): self = .number(Double(value))
        case .double(let value): self = .number(value)
        case .string(let value): self = .string(value)
        }
    }

    /// The name of the value's type, for error messages.
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .object: "object"
        case .array: "array"
        case .regex: "regular expression"
        case .snapshot: "RuleDataSnapshot"
        }
    }
}

/// The data at one location, as `root`, `data` and `newData` show it to a rule: a tree and a path into it, so
/// `parent()` can climb.
public struct RuleSnapshot: Sendable, Equatable {
    public let root: Node
    public let path: Path
    /// Whether this is the data as a write would leave it (`newData` and what its methods return).
    public let isNewData: Bool

    /// The node at the path, found once.
    public let node: Node

    public init(root: Node, path: Path, isNewData: Bool = false) {
        self.init(root: root, path: path, isNewData: isNewData, node: root.node(at: path))
    }

    /// A snapshot whose node the caller already found (`node` must be `root.node(at: path)`).
    init(root: Node, path: Path, isNewData: Bool, node: Node) {
        self.root = root
        self.path = path
        self.isNewData = isNewData
        self.node = node
    }

    /// The snapshot of `path` in the same tree.
    func moved(to path: Path) -> RuleSnapshot {
        RuleSnapshot(root: self.root, path: path, isNewData: self.isNewData)
    }

    /// The snapshot of the location `relative` below this one, found from this one's node.
    func child(_ relative: Path) -> RuleSnapshot {
        RuleSnapshot(
            root: self.root, path: self.path.appending(relative), isNewData: self.isNewData,
            node: self.node.node(at: relative))
    }

}

extension RuleValue {
    /// The value as JSON (`auth` in an `auth` answer); regular expressions and snapshots, which no `auth` holds,
    /// become `null`.
    public var jsonValue: JSONValue {
        switch self {
        case .null, .regex, .snapshot: .null
        case .bool(let value): .bool(value)
        case .number(let value): Int64(exactly: value).map(JSONValue.int) ?? .double(value)
        case .string(let value): .string(value)
        case .object(let members): .object(members.mapValues(\.jsonValue))
        case .array(let elements): .array(elements.map(\.jsonValue))
        }
    }
}
