/// Reads one REST bound parameter (`startAt`, `endBefore`, …) into a `QueryBound` for a given index.
///
/// A parameter is a JSON value, optionally followed by a comma and a JSON string naming the key
/// (`startAt="x","k"`). Since the value may itself contain commas, every comma is tried from the right until both
/// sides parse. The checks here repeat `QuerySpec.init`'s so that messages name the REST parameter.
struct RESTBoundReader {
    let index: QueryIndex
    /// True when values are raw keys, not JSON (firebase-tools' shallow listing).
    let rawKeys: Bool

    /// The bound in `text`; `defaultName` is the name used when none is given (`startAfter`/`endBefore` only).
    func bound(
        _ text: String,
        parameter: String,
        inclusive: Bool,
        defaultName: Key?,
        parseJSON: (String) throws -> JSONValue
    ) throws(QueryError) -> QueryBound {
        if self.rawKeys { return QueryBound(.string(text), inclusive: inclusive) }
        let (json, name) = try self.split(text, parameter: parameter, parseJSON: parseJSON)
        let value = try QuerySpec.boundValue(json, parameter: parameter)
        switch self.index {
        case .key:
            guard case .string = value else {
                throw QueryError(
                    .invalidBound,
                    "\(parameter) must be a JSON string (a key) when orderBy is \"$key\": quote it, as in "
                        + "\(parameter)=\"abc\"; got \(PathError.quoted(text))."
                )
            }
            return QueryBound(value, inclusive: inclusive)
        case .priority:
            if case .bool = value {
                throw QueryError(
                    .invalidBound,
                    "\(parameter) can't be a boolean when orderBy is \"$priority\"; use null, a number or a string."
                )
            }
        case .value, .child:
            break
        }
        let key = try name.map { (string) throws(QueryError) in try QuerySpec.boundName(string, parameter: parameter) }
        return QueryBound(value, name: key ?? defaultName, inclusive: inclusive)
    }

    /// Splits `value` or `value,"name"` into its JSON value and optional name.
    private func split(
        _ text: String,
        parameter: String,
        parseJSON: (String) throws -> JSONValue
    ) throws(QueryError) -> (JSONValue, String?) {
        if let whole = try? parseJSON(text) { return (whole, nil) }
        var comma = text.endIndex
        while let found = text[..<comma].lastIndex(of: ",") {
            comma = found
            guard case .string(let name)? = try? parseJSON(String(text[text.index(after: found)...])),
                let value = try? parseJSON(String(text[..<found]))
            else { continue }
            return (value, name)
        }
        throw QueryError(
            .invalidBound,
            "\(parameter) must be a JSON value, optionally followed by a comma and a quoted key, as in "
                + "\(parameter)=\"abc\", \(parameter)=25 or \(parameter)=25,\"key1\"; got \(PathError.quoted(text))."
        )
    }
}
