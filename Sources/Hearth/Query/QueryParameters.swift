import Foundation
package import HearthCore

/// What a chain of query methods asked for, checked the way FirebaseDatabase checks it (one ordering, one limit,
/// one start, one end; bounds that fit the ordering) and turned into the `QuerySpec` the engine and the server
/// share. A value: each query method returns a changed copy or the error the app made.
package struct QueryParameters: Sendable, Hashable {
    package private(set) var index: QueryIndex = .priority
    private var isOrdered = false
    private var start: QueryBound?
    private var end: QueryBound?
    private var limit: QueryLimit?

    /// The query as the engine takes it, built by the last check.
    package private(set) var spec = QuerySpec.default

    package init() {}

    package func ordered(by index: QueryIndex) throws(DatabaseValueError) -> QueryParameters {
        guard !self.isOrdered else { throw DatabaseValueError("Cannot use multiple queryOrderedBy calls!") }
        var copy = self
        copy.index = index
        copy.isOrdered = true
        return try copy.checked()
    }

    /// `queryStarting(atValue:)` (inclusive) and `queryStarting(afterValue:)`.
    package func starting(_ value: Any?, childKey: String?, inclusive: Bool, method: String) throws(DatabaseValueError)
        -> QueryParameters
    {
        try self.bounded(value, childKey: childKey, inclusive: inclusive, isStart: true, method: method)
    }

    /// `queryEnding(atValue:)` (inclusive) and `queryEnding(beforeValue:)`.
    package func ending(_ value: Any?, childKey: String?, inclusive: Bool, method: String) throws(DatabaseValueError)
        -> QueryParameters
    {
        try self.bounded(value, childKey: childKey, inclusive: inclusive, isStart: false, method: method)
    }

    /// Sets the start or the end, which may be set once.
    private func bounded(_ value: Any?, childKey: String?, inclusive: Bool, isStart: Bool, method: String)
        throws(DatabaseValueError) -> QueryParameters
    {
        guard (isStart ? self.start : self.end) == nil else {
            let earlier =
                isStart
                ? "queryStarting(atValue:), queryStarting(afterValue:)"
                : "queryEnding(atValue:), queryEnding(beforeValue:)"
            throw DatabaseValueError(
                "Can't call \(method) after \(earlier) or queryEqual(toValue:) was previously called")
        }
        var copy = self
        let bound = try self.bound(value, childKey: childKey, inclusive: inclusive, isStart: isStart, method: method)
        if isStart { copy.start = bound } else { copy.end = bound }
        return try copy.checked()
    }

    package func equal(to value: Any?, childKey: String?) throws(DatabaseValueError) -> QueryParameters {
        guard self.start == nil && self.end == nil else {
            throw DatabaseValueError(
                "Can't call queryEqual(toValue:) after queryStarting(atValue:), queryStarting(afterValue:), "
                    + "queryEnding(atValue:), queryEnding(beforeValue:) or queryEqual(toValue:) was previously called")
        }
        var copy = self
        let bound = try self.bound(value, childKey: childKey, inclusive: true, isStart: true, method: "queryEqual")
        copy.start = bound
        copy.end = bound
        return try copy.checked()
    }

    package func limited(_ count: UInt, anchor: QueryLimit.Anchor) throws(DatabaseValueError) -> QueryParameters {
        let method = anchor == .first ? "queryLimited(toFirst:)" : "queryLimited(toLast:)"
        guard self.limit == nil else { throw DatabaseValueError("Can't call \(method) if a limit was previously set") }
        guard count > 0 else { throw DatabaseValueError("Limit can't be zero") }
        guard count < 1 << 31 else { throw DatabaseValueError("Limit must be less than 2,147,483,648") }
        var copy = self
        copy.limit = QueryLimit(count: Int(count), anchor: anchor)
        return try copy.checked()
    }

    private func bound(_ value: Any?, childKey: String?, inclusive: Bool, isStart: Bool, method: String)
        throws(DatabaseValueError) -> QueryBound
    {
        let leaf = try Self.leaf(value, method: method)
        if self.index == .key && childKey != nil {
            throw DatabaseValueError(
                "You must use \(method) without childKey when using queryOrderedByKey(): the value is the key.")
        }
        var name: Key?
        if let childKey {
            do { name = try Key(validating: childKey) } catch {
                throw DatabaseValueError("(\(method)) \(error.message)")
            }
        } else if !inclusive {
            name = isStart ? Key.maxName : Key.minName
        }
        return QueryBound(leaf, name: name, inclusive: inclusive)
    }

    /// A bound's value: nil or `NSNull` for null, a number, a boolean or a string.
    private static func leaf(_ value: Any?, method: String) throws(DatabaseValueError) -> LeafValue? {
        guard let value, !(value is NSNull) else { return nil }
        guard value is String || value is NSNumber else {
            throw DatabaseValueError("You can only pass nil, NSNull, String or NSNumber to \(method)")
        }
        switch try FoundationValue.json(value, at: method) {
        case .bool(let flag): return .bool(flag)
        case .int(let number): return .int(number)
        case .double(let number): return .double(number)
        case .string(let string): return .string(string)
        default: throw DatabaseValueError("You can only pass nil, NSNull, String or NSNumber to \(method)")
        }
    }

    /// Firebase's checks of the bounds against the ordering, by building the spec.
    private func checked() throws(DatabaseValueError) -> QueryParameters {
        if self.index == .key {
            for bound in [self.start, self.end].compactMap({ $0 }) {
                guard case .string? = bound.value else {
                    throw DatabaseValueError(
                        "Can't use queryStarting, queryEnding or queryEqual with non-string values in combination "
                            + "with queryOrderedByKey()")
                }
            }
        }
        if self.index == .priority {
            for bound in [self.start, self.end].compactMap({ $0 }) {
                if case .bool? = bound.value {
                    throw DatabaseValueError(
                        "When using queryOrderedByPriority(), values provided to queryStarting, queryEnding or "
                            + "queryEqual must be valid priorities (a number, a string or nil).")
                }
            }
        }
        var copy = self
        do {
            copy.spec = try QuerySpec(index: self.index, start: self.start, end: self.end, limit: self.limit)
        } catch {
            throw DatabaseValueError(error.message)
        }
        return copy
    }
}
