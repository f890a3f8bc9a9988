/// Checks shared by the wire and REST parsers, each naming the parameter at fault in its message.
extension QuerySpec {
    /// A child index from a path such as `a/b`; its keys must be valid and it must not be the root.
    static func childIndex(_ path: String, parameter: String) throws(QueryError) -> QueryIndex {
        let parsed: Path
        do {
            parsed = try Path(validating: path)
        } catch {
            throw QueryError(
                .invalidOrderBy,
                "The query's \(parameter) \(PathError.quoted(path)) is not a valid child path: \(error.message)"
            )
        }
        if parsed.isRoot {
            throw QueryError(
                .invalidOrderBy,
                "The query's \(parameter) is an empty child path; order by \"$value\" (.value) instead to sort by "
                    + "the children themselves."
            )
        }
        return .child(parsed)
    }

    /// A bound's value: a JSON primitive, never an object or array. `nil` is `null`.
    static func boundValue(_ json: JSONValue, parameter: String) throws(QueryError) -> LeafValue? {
        switch json {
        case .null: return nil
        case .bool(let value): return .bool(value)
        case .int(let value): return .int(value)
        case .double(let value): return .double(value)
        case .string(let value): return .string(value)
        case .array, .object:
            throw QueryError(
                .invalidBound,
                "The query's \(parameter) must be null, a boolean, a number or a string, not an object or array."
            )
        }
    }

    /// A bound's key name: a sentinel (`[MIN_NAME]`, `[MAX_NAME]`, `[MAX_KEY]`) or a valid key.
    static func boundName(_ string: String, parameter: String) throws(QueryError) -> Key {
        if BoundName(Key(unchecked: string)).isSentinel { return Key(unchecked: string) }
        do {
            return try Key(validating: string)
        } catch {
            throw QueryError(
                .invalidBound,
                "The query's \(parameter) name \(PathError.quoted(string)) is not a valid key: \(error.message)"
            )
        }
    }

    /// A limit: a positive integer (Android may send it as a double such as `10.0`).
    static func limitCount(_ json: JSONValue, parameter: String) throws(QueryError) -> Int {
        guard let count = json.intValue, count >= 1, let exact = Int(exactly: count) else {
            throw QueryError(
                .invalidLimit,
                "The query's \(parameter) must be a positive integer such as 10, not \(QuerySpec.shown(json))."
            )
        }
        return exact
    }

    /// The bound value as JSON; `nil` is `null`.
    static func json(_ value: LeafValue?) -> JSONValue {
        switch value {
        case nil: .null
        case .bool(let value)?: .bool(value)
        case .int(let value)?: .int(value)
        case .double(let value)?: .double(value)
        case .string(let value)?: .string(value)
        }
    }

    /// A short, JSON-like rendering of a value for error messages (objects and arrays are summarised).
    static func shown(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .string(let value): PathError.quoted(value)
        case .array: "an array"
        case .object: "an object"
        }
    }
}
