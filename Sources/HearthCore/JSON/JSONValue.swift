/// A generic JSON document, for protocol messages and request parameters.
///
/// Tree data does not pass through this type on hot paths: `JSONReader` builds `Node`s directly. Integers that fit
/// `Int64` stay exact; other numbers are doubles. Objects keep the last value of a duplicated key, as JavaScript does;
/// member names are `JSONKey`s, so canonically equivalent but differently encoded names are two members, as in
/// Firebase.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([JSONKey: JSONValue])

    /// An object whose members' names come as `String`s (a report's figures, a configuration): strings that
    /// differ as `String`s differ in their bytes, so no member is lost.
    public init(members: [String: JSONValue]) {
        self = .object(Dictionary(uniqueKeysWithValues: members.lazy.map { (JSONKey($0.key), $0.value) }))
    }

    /// The member named `key` when this is an object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[JSONKey(key)] }
        return nil
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The value as an integer when it is a JSON integer, or a double with no fraction that fits in `Int64`.
    public var intValue: Int64? {
        switch self {
        case .int(let value): return value
        case .double(let value):
            guard value.rounded() == value, let exact = Int64(exactly: value) else { return nil }
            return exact
        default: return nil
        }
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }
}
