public import Foundation
import HearthCore

/// The data a transaction's block reads and changes (FirebaseDatabase's `MutableData`). Children got with
/// `childData(byAppendingPath:)` or `children` share the tree: setting a child's value changes the parent's.
///
/// Only for use inside the transaction block that received it. A value the database cannot store is not
/// written: the transaction then ends with that error instead of FirebaseDatabase's exception.
///
/// An `NSObject`, as FirebaseDatabase's is (`==` and `hash` are identity); open, so an app's tests can subclass it.
open class MutableData: NSObject, @unchecked Sendable {
    private let store: MutableDataStore
    private let path: Path

    init(store: MutableDataStore, path: Path) {
        self.store = store
        self.path = path
    }

    /// Empty data of its own, in no transaction (FirebaseDatabase's bare `init()` from `NSObject`): setting values
    /// on it works as inside a transaction block, so an app's tests can build the data a block receives.
    public override init() {
        self.store = MutableDataStore(node: .empty, location: .root)
        self.path = .root
    }

    /// The data as `NSNumber`, `String`, `[String: Any]` or `[Any]`, `NSNull` when there is none; set it to
    /// change it (nil or `NSNull` removes it; `ServerValue` placeholders are filled in by the server).
    open var value: Any? {
        get { self.store.value.node.node(at: self.path).foundationValue ?? NSNull() }
        set { self.store.set(newValue, at: self.path) }
    }

    /// The priority: an `NSNumber`, a `String` or nil.
    open var priority: Any? {
        get { self.store.value.node.node(at: self.path).priority.map(\.leafValue.foundationValue) }
        set { self.store.setPriority(newValue, at: self.path) }
    }

    /// The location's last key (the transaction's own key at its root).
    open var key: String? {
        self.path.last?.string ?? self.store.rootKey
    }

    /// How many children the data has.
    open var childrenCount: UInt { UInt(self.store.value.node.node(at: self.path).childCount) }

    /// Whether the data has children.
    @discardableResult
    open func hasChildren() -> Bool { self.childrenCount > 0 }

    /// Whether there is data at the relative path.
    @discardableResult
    open func hasChild(atPath path: String) -> Bool {
        !self.store.value.node.node(at: self.path.appending(Self.relativePath(path))).isEmpty
    }

    /// The data at a relative path, sharing this tree.
    @discardableResult
    open func childData(byAppendingPath path: String) -> MutableData {
        MutableData(store: self.store, path: self.path.appending(Self.relativePath(path)))
    }

    /// The children, in priority order, each sharing this tree.
    open var children: NSEnumerator {
        let node = self.store.value.node.node(at: self.path)
        return ArrayEnumerator(
            QuerySpec.default.orderedChildren(node).map {
                MutableData(store: self.store, path: self.path.appending($0.key))
            }
        )
    }

    /// `MutableData (key) json`, as FirebaseDatabase's `description` reads (`(top-most transaction)` at the root).
    open override var description: String {
        let node = self.store.value.node.node(at: self.path)
        let json = node.isEmpty ? "null" : String(decoding: node.jsonBytes(), as: UTF8.self)
        return "MutableData (\(self.key ?? "top-most transaction")) \(json)"
    }

    /// The whole tree to write, or the first value set that the database cannot store.
    var written: (WriteValue?, DatabaseValueError?) {
        if let error = self.store.error { return (nil, error) }
        return (self.store.value.subtree(at: self.path), nil)
    }

    private static func relativePath(_ string: String) -> Path {
        do {
            return try DatabasePath.parse(string, method: "childData(byAppendingPath:)")
        } catch {
            preconditionFailure(error.message)
        }
    }
}

/// The tree one run of a transaction block works on, with the server values set into it and the first value it
/// was given that the database cannot store.
final class MutableDataStore: @unchecked Sendable {
    private(set) var value: WriteValue
    private(set) var error: DatabaseValueError?
    let rootKey: String?
    /// The transaction's location, for depth limits and messages.
    private let location: Path

    init(node: Node, location: Path) {
        self.value = WriteValue(node: node)
        self.location = location
        self.rootKey = location.last?.string
    }

    func set(_ newValue: Any?, at path: Path) {
        do {
            let json = try FoundationValue.json(newValue, at: self.location.appending(path).description)
            let written = try WriteValue.checked(json, at: self.location.appending(path))
            self.value = self.value.replacing(at: path, with: written)
        } catch {
            self.error = self.error ?? error
        }
    }

    func setPriority(_ priority: Any?, at path: Path) {
        do {
            let parsed = try WriteValue.priority(priority, at: self.location.appending(path))
            self.value.node = self.value.node.settingPriority(parsed, at: path)
        } catch {
            self.error = self.error ?? error
        }
    }
}
