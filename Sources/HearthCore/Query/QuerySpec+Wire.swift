/// The wire protocol's query object `q` (§2.1, §2.2): `i`, `sp`/`sn`/`sin`, `ep`/`en`/`ein`, `l`/`vf`.
extension QuerySpec {
    /// Parses the `q` member of a listen from any SDK.
    ///
    /// Accepts what the JavaScript, Android and iOS SDKs send: absent `sin`/`ein` mean inclusive; `[MIN_NAME]` is
    /// −∞ and both `[MAX_NAME]` and Android's `[MAX_KEY]` are +∞; integers may arrive as doubles; a legacy `l`
    /// without `vf` counts from the left when a start is set, else from the right. Unknown members are ignored.
    /// - Throws: `QueryError` when `q` is not an object, a member has the wrong type, a bound is an object or does
    ///   not fit the index, a name is not a valid key, or `l` is not a positive integer.
    public init(wire q: JSONValue) throws(QueryError) {
        guard case .object(let members) = q else {
            throw QueryError(
                .malformedQuery,
                "A listen's query (q) must be a JSON object such as {\"l\": 10, \"vf\": \"l\"}."
            )
        }
        let index = try QuerySpec.wireIndex(members["i"])
        let start = try QuerySpec.wireBound(members, value: "sp", name: "sn", inclusive: "sin")
        let end = try QuerySpec.wireBound(members, value: "ep", name: "en", inclusive: "ein")
        var limit: QueryLimit?
        if let l = members["l"] {
            let count = try QuerySpec.limitCount(l, parameter: "l")
            switch members["vf"] {
            case nil: limit = QueryLimit(count: count, anchor: start == nil ? .last : .first)
            case .string("l"): limit = .first(count)
            case .string("r"): limit = .last(count)
            case let other?:
                throw QueryError(
                    .malformedQuery,
                    "The query's vf must be \"l\" or \"r\", not \(QuerySpec.shown(other))."
                )
            }
        }
        try self.init(index: index, start: start, end: end, limit: limit)
    }

    /// The canonical `q` object: equal queries give equal objects, so it serves as a listen's identity.
    ///
    /// `i` is omitted for the priority index; names appear only when they are not the default for their end;
    /// `sin`/`ein` are always present with a bound; `vf` always accompanies `l`.
    public var wireObject: JSONValue {
        var members: [JSONKey: JSONValue] = [:]
        if self.index != .priority { members["i"] = .string(self.index.wireName) }
        if let start = self.start {
            members["sp"] = QuerySpec.json(start.value)
            if let name = start.name { members["sn"] = .string(name.string) }
            members["sin"] = .bool(start.inclusive)
        }
        if let end = self.end {
            members["ep"] = QuerySpec.json(end.value)
            if let name = end.name { members["en"] = .string(name.string) }
            members["ein"] = .bool(end.inclusive)
        }
        if let limit = self.limit {
            members["l"] = .int(Int64(limit.count))
            members["vf"] = .string(limit.anchor == .first ? "l" : "r")
        }
        return .object(members)
    }

    private static func wireIndex(_ member: JSONValue?) throws(QueryError) -> QueryIndex {
        switch member {
        case nil, .string(".priority"): return .priority
        case .string(".key"): return .key
        case .string(".value"): return .value
        case .string(let path):
            return try QuerySpec.childIndex(path, parameter: "i")
        case let other?:
            throw QueryError(
                .malformedQuery,
                "The query's index (i) must be a string such as \".key\" or \"a/b\", not \(QuerySpec.shown(other))."
            )
        }
    }

    private static func wireBound(
        _ members: [JSONKey: JSONValue],
        value: String,
        name: String,
        inclusive: String
    ) throws(QueryError) -> QueryBound? {
        guard let rawValue = members[JSONKey(value)] else { return nil }
        let leaf = try QuerySpec.boundValue(rawValue, parameter: value)
        var key: Key?
        switch members[JSONKey(name)] {
        case nil, .null: key = nil
        case .string(let string): key = try QuerySpec.boundName(string, parameter: name)
        case let other?:
            throw QueryError(
                .malformedQuery,
                "The query's \(name) must be a key string, not \(QuerySpec.shown(other))."
            )
        }
        switch members[JSONKey(inclusive)] {
        case nil: return QueryBound(leaf, name: key, inclusive: true)
        case .bool(let flag): return QueryBound(leaf, name: key, inclusive: flag)
        case let other?:
            throw QueryError(
                .malformedQuery,
                "The query's \(inclusive) must be true or false, not \(QuerySpec.shown(other))."
            )
        }
    }
}
