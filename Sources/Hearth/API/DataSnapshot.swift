public import Foundation
import HearthCore

/// The data at one location at one moment, as a listener or a read receives it (FirebaseDatabase's
/// `DataSnapshot`). Immutable; its children iterate in the order of the query it came from.
public final class DataSnapshot: Sendable, CustomStringConvertible {
    /// The location the data is from.
    public let ref: DatabaseReference
    let node: Node
    let index: QueryIndex

    init(ref: DatabaseReference, node: Node, index: QueryIndex = .priority) {
        self.ref = ref
        self.node = node
        self.index = index
    }

    /// The last key of the location; nil at the root.
    public var key: String? { self.ref.key }

    /// The data as `NSNumber`, `String`, `[String: Any]` or `[Any]`; `NSNull` when there is none, as in
    /// FirebaseDatabase (so `snapshot.value as? [String: Any]` and `snapshot.value is NSNull` read as its docs show).
    public var value: Any? { self.node.foundationValue ?? NSNull() }

    /// The data with priorities, in the form the REST API's `format=export` gives.
    public func valueInExportFormat() -> Any? { self.node.exportFoundationValue ?? NSNull() }

    /// The priority: an `NSNumber`, a `String`, or nil when none is set.
    public var priority: Any? { self.node.priority.map(\.leafValue.foundationValue) }

    /// Whether the location holds data.
    public func exists() -> Bool { !self.node.isEmpty }

    public var childrenCount: UInt { UInt(self.node.childCount) }

    public func hasChildren() -> Bool { self.node.childCount > 0 }

    /// Whether there is data at the relative path `childPathString` (`"name"` or `"address/city"`).
    public func hasChild(_ childPathString: String) -> Bool {
        !self.node.node(at: Self.relativePath(childPathString, method: "hasChild")).isEmpty
    }

    /// The snapshot of the data at a relative path; one that holds nothing when there is none.
    public func childSnapshot(forPath childPathString: String) -> DataSnapshot {
        let relative = Self.relativePath(childPathString, method: "childSnapshot(forPath:)")
        return DataSnapshot(
            ref: DatabaseReference(database: self.ref.database, path: self.ref.path.appending(relative)),
            node: self.node.node(at: relative)
        )
    }

    /// The children's snapshots, in the query's order: `for case let child as DataSnapshot in snapshot.children`.
    public var children: NSEnumerator {
        ArrayEnumerator(
            self.orderedChildren.map { child in
                DataSnapshot(
                    ref: DatabaseReference(database: self.ref.database, path: self.ref.path.appending(child.key)),
                    node: child.node
                )
            })
    }

    public var description: String {
        let json = self.node.isEmpty ? "null" : String(decoding: self.node.jsonBytes(), as: UTF8.self)
        return "Snap (\(self.key ?? "/")) \(json)"
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
