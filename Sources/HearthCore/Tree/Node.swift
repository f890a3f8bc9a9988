/// A persistent, immutable JSON tree: the database's value type.
///
/// A node is empty (Firebase's `null`), a leaf holding a `LeafValue`, or an ordered map of non-empty children.
/// Either kind may carry a `Priority`; an empty node never does. Updates return a new node that shares every
/// untouched subtree with the old one, so taking a snapshot is O(1), readers never block writers, and two versions
/// can be diffed by identity. Each stored node caches its Firebase hash the first time it is asked for.
///
/// A leaf holding a boolean or an integer within Int32's range, without a priority, is held in the node itself
/// (`Representation.integer`, `.boolean`): most leaves of real data are such, and a map of them (a JSON array of
/// small numbers, a set of `true` flags) then costs its elements and nothing per leaf. Any other leaf without a
/// priority lives in a box of its kind and nothing else (no priority, no hash cache): a double or a larger integer
/// in 32 bytes of heap, a string's UTF-8 bytes in the box's own allocation (`StringBox`), where a leaf in storage
/// takes 48 bytes and its string's buffer another allocation. The forms are the same value to every observer:
/// equality, hashes, order and JSON never tell them apart, and every leaf is built through `init(_:priority:)`,
/// which picks the smallest form that applies.
public struct Node: Sendable {
    /// The storage of a non-empty node, shared and immutable once a second reference to it exists.
    ///
    /// `@unchecked Sendable` is safe for the same reason as `ChildMap.TreeNode`'s: `content` is written only through
    /// a reference proved unique by `isKnownUniquelyReferenced` (`Node.set(_:at:)`), so no other thread can be reading
    /// it, and never once the node has been shared.
    final class Storage: @unchecked Sendable {
        /// What the node holds. Exempt from the runtime's exclusivity checks (`swift_beginAccess`, a call and an
        /// access-set entry on every read and write): by the rule above a write happens only through the one
        /// reference in existence, so no access can overlap it.
        @exclusivity(unchecked) var content: Content
        /// Priorities are rare, so they live behind one word instead of inline in every node.
        private let priorityBox: PriorityBox?
        /// The Firebase hash once computed (see `Node+Hash.swift`): one word, where a lock around an optional
        /// string costs three; two threads racing to fill it compute the same value.
        let cachedHash = OnceReference<HashText>()

        init(content: Content, priority: Priority?) {
            self.content = content
            self.priorityBox = priority.map(PriorityBox.init)
        }

        var priority: Priority? { self.priorityBox?.value }

        /// Where this node's children live, read without a retain (see `ChildMap.Place`); `nil` for a leaf.
        var childPlace: ChildMap.Place? {
            guard case .children(let map) = self.content else { return nil }
            return map.place
        }

        /// Whether the node has a priority, without copying it out of its box.
        var hasPriority: Bool { self.priorityBox != nil }
    }

    /// What storage holds. A leaf is boxed so that this is one word and storage 40 bytes (a 48-byte allocation);
    /// only leaves with a priority are stored.
    enum Content: Sendable {
        case leaf(LeafBox)
        case children(ChildMap)
    }

    /// How a node is held: one word, either a small priority-less leaf itself or a reference to its box or storage.
    ///
    /// `@unchecked Sendable` only because `StringBox` is a `ManagedBuffer`, which the standard library declares not
    /// `Sendable`; every payload is immutable once shared (see `StringBox` and `Storage`).
    enum Representation: @unchecked Sendable {
        case empty
        case integer(Int32)
        case boolean(Bool)
        /// The other leaves without a priority; their hash is computed when asked for (one SHA-1 of their text).
        case double(DoubleBox)
        case largeInteger(IntegerBox)
        case string(StringBox)
        case stored(Storage)
    }

    var representation: Representation

    init(representation: Representation) {
        self.representation = representation
    }

    init(storage: Storage?) {
        self.representation = storage.map(Representation.stored) ?? .empty
    }

    /// The node's storage; `nil` for the empty node and for leaves without a priority.
    var storage: Storage? {
        if case .stored(let storage) = self.representation { return storage }
        return nil
    }

    /// Firebase's `null`: no value and no children.
    public static let empty = Node(storage: nil)

    /// A leaf node.
    public init(_ value: LeafValue, priority: Priority? = nil) {
        switch (value, priority) {
        case (.int(let number), nil) where Int32(exactly: number) != nil:
            self.representation = .integer(Int32(truncatingIfNeeded: number))
        case (.int(let number), nil):
            self.representation = .largeInteger(IntegerBox(number))
        case (.bool(let flag), nil):
            self.representation = .boolean(flag)
        case (.double(let number), nil):
            Self.noteLeaf(number)
            self.representation = .double(DoubleBox(number))
        case (.string(let text), nil):
            self.representation = .string(StringBox.make(text))
        default:
            if case .double(let number) = value { Self.noteLeaf(number) }
            self.representation = .stored(Storage(content: .leaf(LeafBox(value)), priority: priority))
        }
    }

    /// A node with the given children; empty children are dropped and no children at all gives `.empty`.
    public init(children: ChildMap, priority: Priority? = nil) {
        self.init(storage: children.isEmpty ? nil : Storage(content: .children(children), priority: priority))
    }

    public var isEmpty: Bool {
        if case .empty = self.representation { return true }
        return false
    }

    public var isLeaf: Bool {
        switch self.representation {
        case .empty: return false
        case .integer, .boolean, .double, .largeInteger, .string: return true
        case .stored(let storage):
            if case .leaf = storage.content { return true }
            return false
        }
    }

    /// The leaf's value, or `nil` for empty and children nodes.
    public var leafValue: LeafValue? {
        switch self.representation {
        case .empty: return nil
        case .integer(let number): return .int(Int64(number))
        case .boolean(let flag): return .bool(flag)
        case .double(let box): return .double(box.value)
        case .largeInteger(let box): return .int(box.value)
        case .string(let box): return .string(box.string)
        case .stored(let storage):
            if case .leaf(let box) = storage.content { return box.value }
            return nil
        }
    }

    /// The children in Firebase key order; empty for leaves and empty nodes.
    public var children: ChildMap {
        if case .children(let map) = self.storage?.content { return map }
        return ChildMap()
    }

    public var childCount: Int { self.children.count }

    public var priority: Priority? { self.storage?.priority }

    /// True when both nodes share storage (or are equal leaves held inline): a cheap "certainly unchanged" test for
    /// diffing.
    public func isIdentical(to other: Node) -> Bool {
        switch (self.representation, other.representation) {
        case (.empty, .empty): true
        case let (.integer(left), .integer(right)): left == right
        case let (.boolean(left), .boolean(right)): left == right
        case let (.double(left), .double(right)): left === right
        case let (.largeInteger(left), .largeInteger(right)): left === right
        case let (.string(left), .string(right)): left === right
        case let (.stored(left), .stored(right)): left === right
        default: false
        }
    }

    /// The child named `key`; `.empty` when absent or when this node is a leaf.
    ///
    /// Straight from storage to the child, without a `children` map built (and retained) on the way: every write
    /// reads the nodes it replaces (server values, overflow checks, the spine) through here.
    public func child(_ key: Key) -> Node {
        guard case .stored(let storage) = self.representation, case .children(let map) = storage.content else {
            return .empty
        }
        return map[key] ?? .empty
    }

    /// The node at `path` below this one; `.empty` when nothing is there.
    public func node(at path: Path) -> Node {
        self.node(at: path.keys[...])
    }

    /// The node at the path of `keys` below this one; `.empty` when nothing is there.
    ///
    /// Borrows every level it passes and retains only the result: the write loop reads the nodes a write replaces
    /// (increments, server values, the obstacle checks) through here, several levels deep, on every write. The
    /// levels are reached through `ChildMap.Place` pointers, valid because `self` holds the whole tree for the walk
    /// and a node, once shared, is never modified.
    func node(at keys: ArraySlice<Key>) -> Node {
        guard let last = keys.indices.last else { return self }
        guard case .stored(let root) = self.representation else { return .empty }
        var storage = Unmanaged.passUnretained(root)
        var index = keys.startIndex
        while true {
            guard let place = storage._withUnsafeGuaranteedRef({ $0.childPlace }),
                let entry = place.slot(for: keys[index])
            else { return .empty }
            if index == last { return entry.pointee.node }
            guard case .stored(let next) = entry.pointee.node.representation else { return .empty }
            storage = Unmanaged.passUnretained(next)
            index += 1
        }
    }

    /// How many keys of `keys` lead from this node to the first leaf among the first `levels` nodes on their way
    /// (this node, then the node at each of the first `levels - 1` keys); nil when none of them is a leaf, or the
    /// way reaches an absent node or the end of `keys` first.
    ///
    /// Borrows every level, as `node(at:)` does, and retains nothing: a shard asks it of every write's paths over the
    /// spine (`ShardStateMachine.landsBelowSpineLeaf`), where reading each level as a `child` retained it.
    public func leafDepth(along keys: borrowing [Key], levels: Int) -> Int? {
        guard levels > 0 else { return nil }
        switch self.representation {
        case .empty: return nil
        case .integer, .boolean, .double, .largeInteger, .string: return 0
        case .stored(let root):
            var storage = Unmanaged.passUnretained(root)
            var depth = 0
            while true {
                // A stored node without children is a leaf (with a priority).
                guard let place = storage._withUnsafeGuaranteedRef({ $0.childPlace }) else { return depth }
                depth += 1
                guard depth < levels, depth <= keys.count, let entry = place.slot(for: keys[depth - 1]) else {
                    return nil
                }
                guard case .stored(let next) = entry.pointee.node.representation else {
                    return entry.pointee.node.isEmpty ? nil : depth
                }
                storage = Unmanaged.passUnretained(next)
            }
        }
    }

    /// The same value with a different priority. Empty nodes stay empty (Firebase drops their priority).
    public func withPriority(_ priority: Priority?) -> Node {
        if let value = self.leafValue { return Node(value, priority: priority) }
        guard let storage = self.storage else { return .empty }
        return Node(storage: Storage(content: storage.content, priority: priority))
    }
}

extension Node: Equatable {
    /// Deep equality of value and priority, short-cut by shared storage.
    public static func == (lhs: Node, rhs: Node) -> Bool {
        switch (lhs.representation, rhs.representation) {
        case (.empty, .empty):
            return true
        case (.empty, _), (_, .empty):
            return false
        case let (.string(left), .string(right)):
            return left === right || left.utf8Equals(right)
        case let (.stored(left), .stored(right)):
            return Self.equal(left, right)
        default:
            return lhs.priority == rhs.priority && lhs.leafValue != nil && lhs.leafValue == rhs.leafValue
        }
    }

    private static func equal(_ left: Storage, _ right: Storage) -> Bool {
        if left === right { return true }
        guard left.priority == right.priority else { return false }
        switch (left.content, right.content) {
        case let (.leaf(a), .leaf(b)):
            return a.value == b.value
        case let (.children(a), .children(b)):
            guard a.count == b.count else { return false }
            for (x, y) in zip(a, b) where x.key != y.key || x.node != y.node {
                return false
            }
            return true
        default:
            return false
        }
    }
}
