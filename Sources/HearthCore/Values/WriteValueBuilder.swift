/// Builds a `WriteValue` straight from JSON events while enforcing Firebase's write rules, so tree data never
/// passes through an intermediate document.
///
/// Each object collects its children as `(Key, Node)` pairs in document order; at its end they are sorted once (or
/// found already sorted in O(n)), duplicates resolved in favour of the last, and handed to
/// `ChildMap(sortedUniqueElements:)`; an array's elements go straight into a `ChildMap.Builder`. Server values
/// travel up as placeholders relative to the value being built and gain one key per level; nothing else copies
/// paths.
struct WriteValueBuilder: JSONBuilder {
    typealias Failure = any Error

    /// The largest string leaf Firebase accepts, in UTF-8 bytes.
    static let maximumStringLength = 10 * 1024 * 1024

    /// What a value being read is for.
    enum Context {
        /// Data that becomes the node at this depth below the database root.
        case data(depth: Int)
        /// The value of `.priority`.
        case priority
        /// The value of `.sv`.
        case serverValue
        /// The value of `.sv`'s `increment`.
        case increment
    }

    /// Which member of an object (or element of an array) is being read.
    enum Member {
        case none
        case child(Key)
        case priority
        case value
        case serverValue
        case increment
    }

    /// A `.priority` member: a fixed priority (`nil` for an explicit `null`) or a server value.
    enum PriorityEntry {
        case fixed(Priority?)
        case serverValue(ServerValue)
    }

    /// Server values found inside a value, relative to it.
    struct Pending {
        var placeholders: [ServerValuePlaceholder] = []
        var priorities: [Path: Priority] = [:]
        /// True when some placeholder fills a value (not a priority), so empty ancestors may become non-empty.
        var fillsValues = false
    }

    /// A finished value.
    struct Fragment {
        var node: Node
        /// Set when the value was `{".sv": …}` in a priority, or the operand object of `.sv`.
        var serverValue: ServerValue? = nil
        var pending: Pending? = nil
    }

    /// An object or array being read.
    struct Container {
        let context: Context
        let isArray: Bool
        var member: Member = .none
        /// An object's children, in document order (sorted at its end).
        var children: [(key: Key, node: Node)] = []
        /// An array's elements, straight into the map's leaves: their keys come in order, so a huge array is never
        /// gathered in a second array first.
        var elements = ChildMap.Builder()
        var elementCount = 0
        var childPending: [(index: Int, key: Key, pending: Pending)] = []
        var isSorted = true
        var hasChildKeys = false
        var priority: PriorityEntry? = nil
        var value: Fragment? = nil
        var serverValue: ServerValue? = nil
        var increment: LeafValue? = nil
    }

    /// What the next value is for; set by `beginMember`/`beginElement` right before the value is read.
    var context: Context
    /// The member keys from the write location down to the value being read, for error messages.
    var location: [String] = []
    /// How many keys below the database root the deepest child read so far sits (`baseDepth` when there is none).
    var deepest: Int
    /// The lists of one server value at a value's root made lately (`rootPlaceholders(_:)`), reused while the same
    /// server value comes again, when `keepsRootPlaceholders`: lent by a reader kept from one value to the next
    /// (`WriteValue.Reader`); a builder of one value keeps none.
    var recentRootPlaceholders: [[ServerValuePlaceholder]] = []
    var keepsRootPlaceholders = false

    init(baseDepth: Int) {
        self.context = .data(depth: baseDepth)
        self.deepest = baseDepth
    }

    static func failure(_ syntaxError: JSONError) -> any Error { syntaxError }

    // MARK: Scalars

    mutating func makeNull() -> Fragment { Fragment(node: .empty) }
    mutating func makeBool(_ value: Bool) -> Fragment { Fragment(node: Node(.bool(value))) }
    mutating func makeInt(_ value: Int64) -> Fragment { Fragment(node: Node(.int(value))) }

    mutating func makeDouble(_ value: Double) throws -> Fragment {
        guard value.isFinite else {
            throw self.invalid("\(value) is not a valid number: numbers must be finite")
        }
        return Fragment(node: Node(.double(value)))
    }

    mutating func makeString(_ value: String) throws -> Fragment {
        let length = value.utf8.count
        guard length <= Self.maximumStringLength else {
            throw self.invalid(
                "a string of \(length) bytes"
                    + " is too long: strings can be at most \(Self.maximumStringLength) bytes of UTF-8"
            )
        }
        return Fragment(node: Node(.string(value)))
    }

    // MARK: Containers

    mutating func beginObject() throws -> Container {
        if case .increment = self.context {
            throw self.invalid("\"increment\" must be a number")
        }
        self.location.append("")
        return Container(context: self.context, isArray: false)
    }

    mutating func beginArray() throws -> Container {
        switch self.context {
        case .data:
            self.location.append("")
            return Container(context: self.context, isArray: true)
        case .priority:
            throw self.invalid(Self.priorityRule)
        case .serverValue:
            throw self.invalid(Self.serverValueRule)
        case .increment:
            throw self.invalid("\"increment\" must be a number")
        }
    }

    mutating func beginMember(_ key: String, in container: inout Container) throws {
        self.location[self.location.count - 1] = key
        switch container.context {
        case .data(let depth):
            switch key {
            case ".priority":
                container.member = .priority
                self.context = .priority
            case ".value":
                container.member = .value
                self.context = .data(depth: depth)
            case ".sv":
                container.member = .serverValue
                self.context = .serverValue
            default:
                if key.utf8.first == UInt8(ascii: ".") {
                    throw PathError(
                        .invalidKey,
                        "Invalid key \(PathError.quoted(key))\(self.locationSuffix(parent: true))"
                            + ": keys starting with \".\" are reserved;"
                            + " only \".priority\", \".value\" and \".sv\" are allowed."
                    )
                }
                let child = try Key(validating: key)
                try self.enterChild(child, depth: depth, in: &container)
            }
        case .priority:
            guard key == ".sv" else { throw self.invalid(Self.priorityRule, parent: true) }
            container.member = .serverValue
            self.context = .serverValue
        case .serverValue:
            guard key == "increment" else { throw self.invalid(Self.serverValueRule, parent: true) }
            container.member = .increment
            self.context = .increment
        case .increment:
            preconditionFailure("member \(key) inside an increment operand in state \(self.location)")
        }
    }

    mutating func beginElement(in container: inout Container) throws {
        guard case .data(let depth) = container.context else {
            preconditionFailure("array element outside data in state \(self.location)")
        }
        let key = Key(unchecked: String(container.elementCount))
        self.location[self.location.count - 1] = key.string
        try self.enterChild(key, depth: depth, in: &container)
    }

    private mutating func enterChild(_ key: Key, depth: Int, in container: inout Container) throws {
        guard depth < Path.maximumDepth else {
            throw PathError(
                .pathTooDeep,
                "Invalid data at key \(PathError.quoted(key.string))\(self.locationSuffix(parent: true))"
                    + ": it would sit \(depth + 1) levels deep; Firebase allows at most \(Path.maximumDepth)."
            )
        }
        container.hasChildKeys = true
        container.member = .child(key)
        if depth + 1 > self.deepest { self.deepest = depth + 1 }
        self.context = .data(depth: depth + 1)
    }

    mutating func endMember(_ value: Fragment, in container: inout Container) throws {
        switch container.member {
        case .child(let key) where container.isArray:
            container.elements.append(key, value.node)
            container.elementCount += 1
            if let pending = value.pending {
                container.childPending.append((container.elementCount - 1, key, pending))
            }
        case .child(let key):
            if let previous = container.children.last?.key, !(previous < key) { container.isSorted = false }
            container.children.append((key, value.node))
            if let pending = value.pending {
                container.childPending.append((container.children.count - 1, key, pending))
            }
        case .priority:
            container.priority = try self.priorityEntry(from: value)
        case .value:
            container.value = value
        case .serverValue:
            container.serverValue = try self.serverValue(from: value)
        case .increment:
            switch value.node.leafValue {
            case .int?, .double?: container.increment = value.node.leafValue
            default: throw self.invalid("\"increment\" must be a number")
            }
        case .none:
            preconditionFailure("value without a member in state \(self.location)")
        }
    }

    mutating func endObject(_ container: Container) throws -> Fragment {
        defer { self.location.removeLast() }
        switch container.context {
        case .data:
            return try self.finishData(container)
        case .priority:
            guard let serverValue = container.serverValue else { throw self.invalid(Self.priorityRule, parent: true) }
            return Fragment(node: .empty, serverValue: serverValue)
        case .serverValue:
            guard let increment = container.increment else { throw self.invalid(Self.serverValueRule, parent: true) }
            return Fragment(node: .empty, serverValue: .increment(increment))
        case .increment:
            preconditionFailure("object as an increment operand in state \(self.location)")
        }
    }

    mutating func endArray(_ container: Container) throws -> Fragment {
        defer { self.location.removeLast() }
        return try self.finishData(container)
    }
}
