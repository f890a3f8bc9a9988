/// The REST API's query parameters (§7.3): `orderBy`, `startAt`, `startAfter`, `endAt`, `endBefore`, `equalTo`,
/// `limitToFirst`, `limitToLast`.
extension QuerySpec {
    /// The REST parameters that make up a query, besides `orderBy`.
    public static let restFilterParameters = [
        "startAt", "startAfter", "endAt", "endBefore", "equalTo", "limitToFirst", "limitToLast",
    ]

    /// Reads a query from a REST request's already percent-decoded parameters, or `nil` when it has none.
    ///
    /// Values are JSON texts, decoded with `parseJSON`. `orderBy` must be a JSON string: `"$key"`, `"$value"`,
    /// `"$priority"` or a child path such as `"a/b"`. A bound may carry a key name as the JavaScript REST client sends
    /// it: a JSON value, a comma, a JSON string (`startAt="x","k"`). `startAfter(v)` and `endBefore(v)` on a non-key
    /// index mean `(v, [MAX_NAME])` and `(v, [MIN_NAME])`, exclusive; under `$key` they are exclusive key bounds and
    /// names are ignored.
    ///
    /// One exception keeps firebase-tools working: with `shallow=true` and no `orderBy`, the query is in key order
    /// and bound parameters are raw keys, not JSON (`shallow=true&limitToFirst=100&startAfter=abc`).
    /// - Throws: `QueryError` naming the parameter to change: filters without `orderBy`, an unquoted or invalid
    ///   `orderBy`, both limits, a limit that is not a positive integer, `equalTo` with a start or end, two starts or
    ///   two ends, an object or array bound, a non-string bound under `$key`, a boolean bound under `$priority`.
    public static func rest(
        parameters: [String: String],
        parseJSON: (String) throws -> JSONValue
    ) throws(QueryError) -> QuerySpec? {
        let present = QuerySpec.restFilterParameters.filter { parameters[$0] != nil }
        let index: QueryIndex
        let rawKeys: Bool
        if let orderBy = parameters["orderBy"] {
            index = try QuerySpec.restIndex(orderBy, parseJSON: parseJSON)
            rawKeys = false
        } else if present.isEmpty {
            return nil
        } else if parameters["shallow"] == "true" {
            index = .key
            rawKeys = true
        } else {
            throw QueryError(.orderByRequired, "orderBy must be defined when other query parameters are defined")
        }
        try QuerySpec.checkCombinations(present)
        let reader = RESTBoundReader(index: index, rawKeys: rawKeys)
        var start: QueryBound?
        var end: QueryBound?
        for range in QuerySpec.restRangeParameters {
            guard let text = parameters[range.name] else { continue }
            let bound = try reader.bound(
                text,
                parameter: range.name,
                inclusive: range.inclusive,
                defaultName: range.defaultName,
                parseJSON: parseJSON
            )
            if range.isStart { start = bound }
            if range.isEnd { end = bound }
        }
        var limit: QueryLimit?
        if let text = parameters["limitToFirst"] {
            limit = .first(try QuerySpec.restLimit(text, parameter: "limitToFirst", parseJSON: parseJSON))
        }
        if let text = parameters["limitToLast"] {
            limit = .last(try QuerySpec.restLimit(text, parameter: "limitToLast", parseJSON: parseJSON))
        }
        return try QuerySpec(index: index, start: start, end: end, limit: limit)
    }

    /// The bound parameters: which ends each sets, whether inclusive, and the name used when none is given.
    private static let restRangeParameters:
        [(name: String, isStart: Bool, isEnd: Bool, inclusive: Bool, defaultName: Key?)] = [
            ("equalTo", true, true, true, nil),
            ("startAt", true, false, true, nil),
            ("startAfter", true, false, false, Key.maxName),
            ("endAt", false, true, true, nil),
            ("endBefore", false, true, false, Key.minName),
        ]

    private static func restIndex(
        _ text: String,
        parseJSON: (String) throws -> JSONValue
    ) throws(QueryError) -> QueryIndex {
        guard case .string(let name)? = try? parseJSON(text) else {
            throw QueryError(
                .invalidOrderBy,
                "orderBy must be a JSON string: quote it, as in orderBy=\"$key\", orderBy=\"$value\", "
                    + "orderBy=\"$priority\" or orderBy=\"height\"; got \(PathError.quoted(text))."
            )
        }
        switch name {
        case "$key": return .key
        case "$value": return .value
        case "$priority": return .priority
        default: return try QuerySpec.childIndex(name, parameter: "orderBy")
        }
    }

    private static func checkCombinations(_ present: [String]) throws(QueryError) {
        let given = Set(present)
        if given.contains("limitToFirst") && given.contains("limitToLast") {
            throw QueryError(.conflictingParameters, "Use either limitToFirst or limitToLast, not both.")
        }
        let ranges = ["startAt", "startAfter", "endAt", "endBefore"].filter { given.contains($0) }
        if given.contains("equalTo"), let other = ranges.first {
            throw QueryError(
                .conflictingParameters,
                "equalTo can't be combined with \(other): equalTo already sets both the start and the end."
            )
        }
        if given.contains("startAt") && given.contains("startAfter") {
            throw QueryError(.conflictingParameters, "Use either startAt or startAfter, not both.")
        }
        if given.contains("endAt") && given.contains("endBefore") {
            throw QueryError(.conflictingParameters, "Use either endAt or endBefore, not both.")
        }
    }

    private static func restLimit(
        _ text: String,
        parameter: String,
        parseJSON: (String) throws -> JSONValue
    ) throws(QueryError) -> Int {
        guard let json = try? parseJSON(text) else {
            throw QueryError(
                .invalidLimit,
                "\(parameter) must be a positive integer such as 10; got \(PathError.quoted(text))."
            )
        }
        return try QuerySpec.limitCount(json, parameter: parameter)
    }
}
