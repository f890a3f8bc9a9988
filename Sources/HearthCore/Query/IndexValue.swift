/// A child's value under an index, reduced to what Firebase's value order (§4.2) looks at.
///
/// Order: `null` < `false` < `true` < numbers (compared as doubles, so `1` equals `1.0`) < strings (UTF-16 order) <
/// objects (all equal). Priorities map into the same order (no priority is `null`), which makes it agree with
/// `PriorityOrder`.
enum IndexValue: Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case object

    /// The value of a node: empty is `null`, a leaf its value, a node with children `object`. Priority is ignored.
    init(node: Node) {
        if let leaf = node.leafValue {
            self.init(leaf)
        } else {
            self = node.isEmpty ? .null : .object
        }
    }

    /// A bound's or leaf's value; `nil` is `null`.
    init(_ leaf: LeafValue?) {
        switch leaf {
        case nil: self = .null
        case .bool(let value): self = .bool(value)
        case .int(let value): self = .number(Double(value))
        case .double(let value): self = .number(value)
        case .string(let value): self = .string(value)
        }
    }

    /// A priority in priority order: none first, then numbers, then strings.
    init(_ priority: Priority?) {
        switch priority {
        case nil: self = .null
        case .int(let value): self = .number(Double(value))
        case .double(let value): self = .number(value)
        case .string(let value): self = .string(value)
        }
    }

    private var rank: Int {
        switch self {
        case .null: 0
        case .bool: 1
        case .number: 2
        case .string: 3
        case .object: 4
        }
    }

    /// -1, 0 or 1 comparing two values alone (no key tie-break).
    /// - Complexity: O(1), or O(length) for two strings.
    static func compare(_ lhs: IndexValue, _ rhs: IndexValue) -> Int {
        switch (lhs, rhs) {
        case (.null, .null), (.object, .object):
            return 0
        case let (.bool(a), .bool(b)):
            return a == b ? 0 : (a ? 1 : -1)
        case let (.number(a), .number(b)):
            return a < b ? -1 : (a > b ? 1 : 0)
        case let (.string(a), .string(b)):
            // Not `==`: Swift's String equality is canonical equivalence, Firebase compares code units.
            if Key.utf16Precedes(a, b) { return -1 }
            return Key.utf16Precedes(b, a) ? 1 : 0
        default:
            let left = lhs.rank
            let right = rhs.rank
            return left < right ? -1 : (left > right ? 1 : 0)
        }
    }
}
