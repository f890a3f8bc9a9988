/// How many children a query keeps, counted from the start or from the end of its index order.
///
/// Firebase's `limitToFirst(n)` keeps the `n` lowest children in range (`vf: "l"` on the wire) and `limitToLast(n)`
/// the `n` highest (`vf: "r"`).
public struct QueryLimit: Sendable, Hashable {
    /// Which end of the ordered range the limit counts from.
    public enum Anchor: Sendable, Hashable {
        /// `limitToFirst`: keep the lowest children.
        case first
        /// `limitToLast`: keep the highest children.
        case last
    }

    /// The number of children kept; always at least 1.
    public let count: Int
    public let anchor: Anchor

    /// A limit of `count` children from `anchor`.
    /// - Precondition: `count >= 1`. Parsers check this first and throw `QueryError.Code.invalidLimit`.
    public init(count: Int, anchor: Anchor) {
        precondition(count >= 1, "query limit count \(count) in state anchor=\(anchor) must be at least 1")
        self.count = count
        self.anchor = anchor
    }

    /// `limitToFirst(count)`.
    public static func first(_ count: Int) -> QueryLimit { QueryLimit(count: count, anchor: .first) }
    /// `limitToLast(count)`.
    public static func last(_ count: Int) -> QueryLimit { QueryLimit(count: count, anchor: .last) }
}
