public import Foundation
import HearthCore

/// A location with an ordering, a range and a limit, to listen to or read (FirebaseDatabase's `DatabaseQuery`).
/// Each `query…` method returns a new query; a combination Firebase refuses (two orderings, a limit set twice, a
/// bound that does not fit the ordering) stops the app with Firebase's message, as its exception does.
///
/// Immutable, so queries and references can be shared across threads. An `NSObject`, as FirebaseDatabase's is:
/// `==` and `hash` are identity, `description` is `(path {parameters})` (a reference's is its URL).
public class DatabaseQuery: NSObject, @unchecked Sendable {
    /// The database the query reads.
    public let database: Database
    let path: Path
    let parameters: QueryParameters

    init(database: Database, path: Path, parameters: QueryParameters) {
        self.database = database
        self.path = path
        self.parameters = parameters
    }

    /// The root of `Database.database()`, unordered (FirebaseDatabase's bare `init()` from `NSObject`, there an
    /// instance with nothing set): a base for an app's test doubles. Nothing connects until it is listened to.
    public override convenience init() {
        self.init(database: Database.database(), path: .root, parameters: QueryParameters())
    }

    /// `(path {parameters})` as FirebaseDatabase's query reads; a reference's URL.
    public override var description: String {
        if let reference = self as? DatabaseReference { return reference.url }
        return "(\(self.path) \(self.parameters.spec.wireObject.jsonString()))"
    }

    /// The location the query reads.
    public var ref: DatabaseReference {
        DatabaseReference(database: self.database, path: self.path)
    }

    /// The children in the order of the child at `key` (a path such as `"stats/stars"` is allowed).
    @discardableResult
    public func queryOrdered(byChild key: String) -> DatabaseQuery {
        if ["$key", "$value", "$priority"].contains(key) {
            preconditionFailure(
                "(queryOrdered(byChild:)) \(key) is invalid. Use queryOrderedByKey(), queryOrderedByValue() or "
                    + "queryOrderedByPriority() instead.")
        }
        let child = Self.checked { () throws(DatabaseValueError) in
            try DatabasePath.parse(key, method: "queryOrdered(byChild:)")
        }
        return self.changed { try $0.ordered(by: .child(child)) }
    }

    /// The children in key order.
    @discardableResult
    public func queryOrderedByKey() -> DatabaseQuery { self.changed { try $0.ordered(by: .key) } }

    /// The children in the order of their values.
    @discardableResult
    public func queryOrderedByValue() -> DatabaseQuery { self.changed { try $0.ordered(by: .value) } }

    /// The children in priority order (a plain reference's order).
    @discardableResult
    public func queryOrderedByPriority() -> DatabaseQuery { self.changed { try $0.ordered(by: .priority) } }

    /// The first `limit` children in the query's order.
    @discardableResult
    public func queryLimited(toFirst limit: UInt) -> DatabaseQuery {
        self.changed { try $0.limited(limit, anchor: .first) }
    }

    /// The last `limit` children in the query's order.
    @discardableResult
    public func queryLimited(toLast limit: UInt) -> DatabaseQuery {
        self.changed { try $0.limited(limit, anchor: .last) }
    }

    /// Children from `startValue` on.
    @discardableResult
    public func queryStarting(atValue startValue: Any?) -> DatabaseQuery {
        self.queryStarting(atValue: startValue, childKey: nil)
    }

    /// Children from `startValue` on (and, among those equal to it, from the key `childKey` on).
    @discardableResult
    public func queryStarting(atValue startValue: Any?, childKey: String?) -> DatabaseQuery {
        self.changed {
            try $0.starting(startValue, childKey: childKey, inclusive: true, method: "queryStarting(atValue:)")
        }
    }

    /// Children after `startValue`.
    @discardableResult
    public func queryStarting(afterValue startValue: Any?) -> DatabaseQuery {
        self.queryStarting(afterValue: startValue, childKey: nil)
    }

    /// Children after `startValue` (or, with `childKey`, after that key among those equal to it).
    @discardableResult
    public func queryStarting(afterValue startValue: Any?, childKey: String?) -> DatabaseQuery {
        self.changed {
            try $0.starting(startValue, childKey: childKey, inclusive: false, method: "queryStarting(afterValue:)")
        }
    }

    /// Children up to `endValue`.
    @discardableResult
    public func queryEnding(atValue endValue: Any?) -> DatabaseQuery {
        self.queryEnding(atValue: endValue, childKey: nil)
    }

    /// Children up to `endValue` (and, among those equal to it, up to the key `childKey`).
    @discardableResult
    public func queryEnding(atValue endValue: Any?, childKey: String?) -> DatabaseQuery {
        self.changed { try $0.ending(endValue, childKey: childKey, inclusive: true, method: "queryEnding(atValue:)") }
    }

    /// Children before `endValue`.
    @discardableResult
    public func queryEnding(beforeValue endValue: Any?) -> DatabaseQuery {
        self.queryEnding(beforeValue: endValue, childKey: nil)
    }

    /// Children before `endValue` (or, with `childKey`, before that key among those equal to it).
    @discardableResult
    public func queryEnding(beforeValue endValue: Any?, childKey: String?) -> DatabaseQuery {
        self.changed {
            try $0.ending(endValue, childKey: childKey, inclusive: false, method: "queryEnding(beforeValue:)")
        }
    }

    /// Children equal to `value`.
    @discardableResult
    public func queryEqual(toValue value: Any?) -> DatabaseQuery {
        self.queryEqual(toValue: value, childKey: nil)
    }

    /// Children equal to `value` (and, with `childKey`, only that key).
    @discardableResult
    public func queryEqual(toValue value: Any?, childKey: String?) -> DatabaseQuery {
        self.changed { try $0.equal(to: value, childKey: childKey) }
    }

    private func changed(_ change: (QueryParameters) throws -> QueryParameters) -> DatabaseQuery {
        do {
            let parameters = try change(self.parameters)
            return DatabaseQuery(database: self.database, path: self.path, parameters: parameters)
        } catch let error as DatabaseValueError {
            preconditionFailure(error.message)
        } catch {
            preconditionFailure("\(error)")
        }
    }

    /// The result of a check FirebaseDatabase makes with an exception: a failure stops the app with its message.
    static func checked<Result>(_ body: () throws(DatabaseValueError) -> Result) -> Result {
        do {
            return try body()
        } catch {
            preconditionFailure(error.message)
        }
    }
}
