package import HearthCore

/// Priorities travel as leaf values: a priority write's value is parsed, resolved (`.sv` timestamp/increment) and
/// logged like any leaf, then turned back into a `Priority`.
extension Node {
    /// A leaf holding `priority`'s value, or `.empty` for no priority.
    init(priorityValue priority: Priority?) {
        self = priority.map { Node($0.leafValue) } ?? .empty
    }

    /// A priority as JSON (`null` when absent), for log records, snapshots and REST responses.
    package static func priorityJSON(_ priority: Priority?) -> [UInt8] {
        (priority?.jsonValue ?? .null).jsonBytes()
    }
}

extension ResolvedMutation {
    /// The priority a resolved leaf stands for (`nil` when the write cleared it or the value cannot be one).
    static func priority(from node: Node) -> Priority? {
        switch node.leafValue {
        case .int(let value): .int(value)
        case .double(let value): .double(value)
        case .string(let value): .string(value)
        case .bool, nil: nil
        }
    }
}
