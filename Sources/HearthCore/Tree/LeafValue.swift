/// A primitive JSON value stored at a leaf: Firebase's boolean, number and string.
///
/// Integers are kept exactly as `Int64` so counters and timestamps never lose precision; numbers written with a
/// fraction or exponent are `Double`. Firebase compares and hashes every number as a double.
public enum LeafValue: Sendable, Hashable {
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)

    /// The number as a double, or `nil` for booleans and strings.
    public var numericValue: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        case .bool, .string: nil
        }
    }
}

/// A node's priority: Firebase allows a number or a string.
public enum Priority: Sendable, Hashable {
    case int(Int64)
    case double(Double)
    case string(String)

    /// The priority as the leaf value it is written as (priorities travel and hash like leaves).
    public var leafValue: LeafValue {
        switch self {
        case .int(let value): .int(value)
        case .double(let value): .double(value)
        case .string(let value): .string(value)
        }
    }

    /// The priority as a double, or `nil` for string priorities.
    public var numericValue: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        case .string: nil
        }
    }
}
