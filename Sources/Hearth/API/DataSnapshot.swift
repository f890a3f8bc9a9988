public import Foundation
import HearthCore

/// The data at one location at one moment, as a listener or a read receives it (FirebaseDatabase's
/// `DataSnapshot`). Immutable; its children iterate in the order of the query it came from.
///
/// An `NSObject`, as FirebaseDatabase's is: `==` and `hash` are identity (FirebaseDatabase does not override
/// them), `description` is `Snap (key) json`. Open, so an app's tests can subclass it as a double.
open class DataSnapshot: NSObject, @unchecked Sendable {
    private let location: DatabaseReference
    let node: Node
    let index: QueryIndex

    init(ref: DatabaseReference, node: Node, index: QueryIndex = .priority) {
        self.location = ref
        self.node = node
        self.index = index
    }

    /// A snapshot holding no data, at the root of `Database.database()` (FirebaseDatabase's bare `init()` from
    /// `NSObject`, there an instance with nothing set): a base for an app's test doubles.
    public override init() {
        self.location = DatabaseReference()
        self.node = .empty
        self.index = .priority
    }

    /// The location the data is from.
    open var ref: DatabaseReference { self.location }

    /// The last key of the location; `""` at the root (FirebaseDatabase declares it non-null, and its nil at the
    /// root reaches Swift as the empty string).
    open var key: String { self.location.key ?? "" }

    /// The data as `NSNumber`, `String`, `[String: Any]` or `[Any]`; `NSNull` when there is none, as in
    /// FirebaseDatabase (so `snapshot.value as? [String: Any]` and `snapshot.value is NSNull` read as its docs show).
    open var value: Any? { self.node.foundationValue ?? NSNull() }

    /// The data with priorities, in the form the REST API's `format=export` gives.
    @discardableResult
    open func valueInExportFormat() -> Any? { self.node.exportFoundationValue ?? NSNull() }

    /// The priority: an `NSNumber`, a `String`, or nil when none is set.
    open var priority: Any? { self.node.priority.map(\.leafValue.foundationValue) }

    /// Whether the location holds data.
    @discardableResult
    open func exists() -> Bool { !self.node.isEmpty }

    /// How many children the data has.
    open var childrenCount: UInt { UInt(self.node.childCount) }

    /// Whether the data has children.
    @discardableResult
    open func hasChildren() -> Bool { self.node.childCount > 0 }

    /// Whether there is data at the relative path `childPathString` (`"name"` or `"address/city"`).
    @discardableResult
    open func hasChild(_ childPathString: String) -> Bool {
        !self.node.node(at: Self.relativePath(childPathString, method: "hasChild")).isEmpty
    }

    /// The snapshot of the data at a relative path; one that holds nothing when there is none.
    @discardableResult
    open func childSnapshot(forPath childPathString: String) -> DataSnapshot {
        let relative = Self.relativePath(childPathString, method: "childSnapshot(forPath:)")
        return DataSnapshot(ref: self.location.child(at: relative), node: self.node.node(at: relative))
    }

    /// The children's snapshots, in the query's order: `for case let child as DataSnapshot in snapshot.children`.
    open var children: NSEnumerator {
        ArrayEnumerator(
            self.orderedChildren.map { child in
                DataSnapshot(ref: self.location.child(at: Path(keys: [child.key])), node: child.node)
            })
    }

    /// `Snap (key) json`, as FirebaseDatabase's `description` reads.
    open override var description: String {
        let json = self.node.isEmpty ? "null" : String(decoding: self.node.jsonBytes(), as: UTF8.self)
        return "Snap (\(self.key)) \(json)"
    }

    private var orderedChildren: [(key: Key, node: Node)] {
        guard let spec = try? QuerySpec(index: self.index) else {
            return QuerySpec.default.orderedChildren(self.node)
        }
        return spec.orderedChildren(self.node)
    }

    private static func relativePath(_ string: String, method: String) -> Path {
        do {
            return try DatabasePath.parse(string, method: method)
        } catch {
            preconditionFailure(error.message)
        }
    }
}

/// An `NSEnumerator` over values the library made (FirebaseDatabase hands out `children` as one).
final class ArrayEnumerator: NSEnumerator {
    private var remaining: IndexingIterator<[Any]>

    init(_ values: [Any]) {
        self.remaining = values.makeIterator()
    }

    override func nextObject() -> Any? {
        self.remaining.next()
    }
}
