import HearthCore

/// A location in the database, to read, write and listen to (FirebaseDatabase's `DatabaseReference`). It is
/// also the query of all the location's data in priority order.
///
/// An `NSObject`, as FirebaseDatabase's is: `==` and `hash` are identity (two references to one location are
/// not equal, as in FirebaseDatabase), `description` and `description()` are the URL.
public final class DatabaseReference: DatabaseQuery, @unchecked Sendable {
    init(database: Database, path: Path) {
        super.init(database: database, path: path, parameters: QueryParameters())
    }

    /// The root of `Database.database()` (FirebaseDatabase's bare `init()` from `NSObject`, there an instance with
    /// nothing set): a base for an app's test doubles. Nothing connects until it is read, written or listened to.
    public convenience init() {
        self.init(database: Database.database(), path: .root)
    }

    /// The last key of the location; nil at the root.
    public var key: String? { self.path.last?.string }

    /// The location above; nil at the root.
    public var parent: DatabaseReference? {
        self.path.parent.map { DatabaseReference(database: self.database, path: $0) }
    }

    /// The database's root.
    public var root: DatabaseReference { DatabaseReference(database: self.database, path: .root) }

    /// The location's URL.
    public var url: String { self.database.location.url(of: self.path) }

    /// The location's URL (FirebaseDatabase's `description()`).
    @discardableResult
    public func description() -> String { self.url }

    /// The location at a relative path (`"users/ada"`); an invalid key stops the app with Firebase's message.
    @discardableResult
    public func child(_ pathString: String) -> DatabaseReference {
        let path = Self.checked { () throws(DatabaseValueError) in
            try DatabasePath.parse(pathString, under: self.path, method: "child:")
        }
        return DatabaseReference(database: self.database, path: path)
    }

    /// The location at a relative path already checked.
    func child(at relative: Path) -> DatabaseReference {
        DatabaseReference(database: self.database, path: self.path.appending(relative))
    }

    /// A new child with a push id: unique, and in the order the ids were made (FirebaseDatabase's push ids).
    @discardableResult
    public func childByAutoId() -> DatabaseReference {
        self.child(self.database.repo.makePushID())
    }

    /// Disconnects every database.
    public static func goOffline() { Database.all.forEach { $0.goOffline() } }

    /// Reconnects every database.
    public static func goOnline() { Database.all.forEach { $0.goOnline() } }
}
