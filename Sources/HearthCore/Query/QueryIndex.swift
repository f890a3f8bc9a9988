/// What a query orders children by: Firebase's `orderByPriority`, `orderByKey`, `orderByValue` and `orderByChild`.
///
/// The priority index is the default, so a query without an explicit order sorts by priority. A child index names a
/// path relative to each child; it may be nested (`a/b`) but never the root (that is the value index).
public enum QueryIndex: Sendable, Hashable {
    case priority
    case key
    case value
    case child(Path)

    /// The index as the wire protocol's `i` member spells it: `.priority`, `.key`, `.value` or `a/b`.
    public var wireName: String {
        switch self {
        case .priority: ".priority"
        case .key: ".key"
        case .value: ".value"
        case .child(let path): path.slashless
        }
    }

    /// The index as the REST `orderBy` parameter spells it (before JSON quoting): `$priority`, `$key`, `$value` or
    /// `a/b`.
    public var restName: String {
        switch self {
        case .priority: "$priority"
        case .key: "$key"
        case .value: "$value"
        case .child(let path): path.slashless
        }
    }
}
