package import HearthCore

/// When a complete window of one query also answers another query at the same location.
///
/// Firebase answers a new query from cache only when that exact query was completed before. A window holds more:
/// the last four children by some order also hold the last two by that order. A query is answered by another with
/// the same order and range when it needs no children the other may have left out: the other has no limit, or
/// counts from the same end at least as many.
package enum QueryCoverage {
    /// True when `query`'s result can be computed from `complete`'s whole window.
    package static func answers(_ query: QuerySpec, from complete: QuerySpec) -> Bool {
        guard query.index == complete.index, query.start == complete.start, query.end == complete.end else {
            return false
        }
        guard let covering = complete.limit else { return true }
        guard let wanted = query.limit else { return false }
        return wanted.anchor == covering.anchor && wanted.count <= covering.count
    }
}
