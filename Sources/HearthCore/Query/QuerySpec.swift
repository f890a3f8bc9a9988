/// A Firebase query's parameters: an index, an optional range and an optional limit.
///
/// This is the value the server keeps per listen and per REST read. It is built from the wire protocol's `q` object
/// (`init(wire:)`), from REST parameters (`rest(parameters:parseJSON:)`) or directly. The initialiser normalises
/// equivalent queries to one value, so `==` and hashing mean "selects the same children" and `wireObject` is a
/// canonical listen identity:
/// - integral doubles in bounds become integers (Android sends `1` as `1.0`);
/// - under the key index bound names are dropped (the post is just the key);
/// - under other indexes a start name of `[MIN_NAME]` and an end name of `[MAX_NAME]` become `nil` (their defaults),
///   `[MAX_KEY]` becomes `[MAX_NAME]`, and bounds whose name is a sentinel become inclusive (no child can equal a
///   sentinel, so inclusivity makes no difference there).
public struct QuerySpec: Sendable, Hashable {
    public let index: QueryIndex
    /// The lower post, or `nil` for −∞.
    public let start: QueryBound?
    /// The upper post, or `nil` for +∞.
    public let end: QueryBound?
    public let limit: QueryLimit?

    /// The query of a plain reference: priority index, no range, no limit.
    public static let `default` = QuerySpec(normalized: .priority, start: nil, end: nil, limit: nil)

    /// Builds a query, checking that its bounds fit its index.
    /// - Throws: `QueryError` with `.invalidOrderBy` for a child index at the root path, or `.invalidBound` for a
    ///   key-index bound that is not a string or a priority-index bound that is a boolean.
    public init(
        index: QueryIndex = .priority,
        start: QueryBound? = nil,
        end: QueryBound? = nil,
        limit: QueryLimit? = nil
    ) throws(QueryError) {
        if case .child(let path) = index, path.isRoot {
            throw QueryError(
                .invalidOrderBy,
                "orderByChild needs a non-empty child path; use orderByValue to order by the children themselves."
            )
        }
        self.init(
            normalized: index,
            start: try QuerySpec.normalize(start, index: index, isStart: true),
            end: try QuerySpec.normalize(end, index: index, isStart: false),
            limit: limit
        )
    }

    private init(normalized index: QueryIndex, start: QueryBound?, end: QueryBound?, limit: QueryLimit?) {
        self.index = index
        self.start = start
        self.end = end
        self.limit = limit
    }

    /// True for the default query: priority index and no range or limit (JavaScript's `QueryParams.isDefault`).
    public var isDefault: Bool { self.loadsAllData && self.index == .priority }

    /// True when the query selects every child (no start, end or limit), whatever its index. Such listens are
    /// untagged on the wire (§2.3).
    public var loadsAllData: Bool { self.start == nil && self.end == nil && self.limit == nil }

    private static func normalize(
        _ bound: QueryBound?,
        index: QueryIndex,
        isStart: Bool
    ) throws(QueryError) -> QueryBound? {
        guard var bound else { return nil }
        let end = isStart ? "start" : "end"
        if case .double(let number) = bound.value, let exact = Int64(exactly: number) {
            bound.value = .int(exact)
        }
        switch index {
        case .key:
            guard case .string(let key) = bound.value else {
                throw QueryError(
                    .invalidBound,
                    "The query's \(end) value must be a string when ordering by key; pass the key as a string."
                )
            }
            bound.name = nil
            if BoundName(Key(unchecked: key)).isSentinel { bound.inclusive = true }
            return bound
        case .priority:
            if case .bool = bound.value {
                throw QueryError(
                    .invalidBound,
                    "The query's \(end) value can't be a boolean when ordering by priority; "
                        + "use null, a number or a string."
                )
            }
        case .value, .child:
            break
        }
        let name = bound.name.map { BoundName($0) } ?? (isStart ? .min : .max)
        switch name {
        case .min:
            bound.name = isStart ? nil : Key.minName
            bound.inclusive = true
        case .max:
            bound.name = isStart ? Key.maxName : nil
            bound.inclusive = true
        case .key:
            break
        }
        return bound
    }
}
