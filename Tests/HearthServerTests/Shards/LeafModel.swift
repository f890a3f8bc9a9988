import HearthCore
import HearthTestKit

@testable import HearthServer

/// The reference a shard's tree is checked against: a plain dictionary from leaf path to value and one from node path
/// to priority, changed by Firebase's write rules written out longhand (no `Node` update code involved).
struct LeafModel {
    var leaves: [Path: LeafValue] = [:]
    var priorities: [Path: Priority] = [:]

    /// True when some leaf sits at `path` or below it.
    func hasData(at path: Path) -> Bool {
        self.leaves.keys.contains { path.contains($0) }
    }

    /// True when a leaf sits strictly above `path`, at a depth below `depth`.
    func hasLeafAbove(_ path: Path, shallowerThan depth: Int) -> Bool {
        (0..<min(depth, path.count)).contains { self.leaves[Path(keys: Array(path.keys.prefix($0)))] != nil }
    }

    /// The node at `path`, built from the dictionaries.
    func node(at path: Path) -> Node {
        if let leaf = self.leaves[path] { return Node(leaf, priority: self.priorities[path]) }
        var keys = Set<Key>()
        for leaf in self.leaves.keys where leaf.count > path.count && path.contains(leaf) {
            keys.insert(leaf.keys[path.count])
        }
        var children = ChildMap()
        for key in keys { children = children.updating(key, with: self.node(at: path.appending(key))) }
        return Node(children: children, priority: self.priorities[path])
    }

    /// Replaces the node at `path` with `value` (leaves and priorities relative to `path`).
    mutating func set(_ path: Path, to value: LeafModel) {
        self.leaves = self.leaves.filter { !path.contains($0.key) }
        self.priorities = self.priorities.filter { !path.contains($0.key) }
        if !value.leaves.isEmpty {
            // A leaf above the new data becomes an object (keeping its priority).
            self.leaves = self.leaves.filter { !($0.key.contains(path)) }
        }
        for (relative, leaf) in value.leaves { self.leaves[path.appending(relative)] = leaf }
        for (relative, priority) in value.priorities { self.priorities[path.appending(relative)] = priority }
        self.priorities = self.priorities.filter { self.hasData(at: $0.key) }
    }

    /// Sets the priority of the node at `path`; nothing happens where there is no node.
    mutating func setPriority(_ path: Path, to priority: Priority?) {
        guard self.hasData(at: path) else { return }
        self.priorities[path] = priority
    }

    /// Resolves `spec` (to be written at `path`) against this model as it is before the write.
    func resolve(_ spec: ValueSpec, at path: Path, now: Int64) -> LeafModel {
        var value = LeafModel()
        self.resolve(spec, base: path, relative: .root, now: now, into: &value)
        return value
    }

    private func resolve(_ spec: ValueSpec, base: Path, relative: Path, now: Int64, into value: inout LeafModel) {
        var priority: Priority?
        switch spec {
        case .null:
            return
        case .leaf(let leaf, let leafPriority):
            value.leaves[relative] = leaf
            priority = leafPriority
        case .increment(let delta, let leafPriority):
            value.leaves[relative] = Self.increment(self.leaves[base.appending(relative)], by: delta)
            priority = leafPriority
        case .timestamp(let leafPriority):
            value.leaves[relative] = .int(now)
            priority = leafPriority
        case .object(let members, let objectPriority):
            for (key, member) in members {
                self.resolve(
                    member, base: base, relative: relative.appending(Key(unchecked: key)), now: now, into: &value)
            }
            priority = objectPriority
        }
        if let priority, value.hasData(at: relative) { value.priorities[relative] = priority }
    }

    /// The priority a priority write sets, resolved against the current priority at `path`.
    func resolve(_ spec: PrioritySpec, at path: Path, now: Int64) -> Priority? {
        switch spec {
        case .fixed(let priority): return priority
        case .timestamp: return .int(now)
        case .increment(let delta):
            switch Self.increment(self.priorities[path]?.leafValue, by: delta) {
            case .int(let number): return .int(number)
            case .double(let number): return .double(number)
            default: return nil
            }
        }
    }

    /// Firebase's increment for the small numbers the tests use: integers add, a double gives a double, anything
    /// else is replaced by the delta.
    static func increment(_ current: LeafValue?, by delta: Int64) -> LeafValue {
        switch current {
        case .int(let number)?: .int(number + delta)
        case .double(let number)?: .double(number + Double(delta))
        default: .int(delta)
        }
    }
}

/// A value a model test writes: rendered as JSON for the state machine, resolved by hand for the model.
indirect enum ValueSpec {
    case null
    case leaf(LeafValue, Priority?)
    case increment(Int64, Priority?)
    case timestamp(Priority?)
    /// Members with distinct keys.
    case object([(String, ValueSpec)], Priority?)

    var json: JSONValue {
        switch self {
        case .null: return .null
        case .leaf(let leaf, nil): return Self.json(leaf)
        case .leaf(let leaf, let priority?):
            return .object([".value": Self.json(leaf), ".priority": Self.json(priority)])
        case .increment(let delta, let priority):
            return Self.placeholder(.object([".sv": .object(["increment": .int(delta)])]), priority)
        case .timestamp(let priority):
            return Self.placeholder(.object([".sv": .string("timestamp")]), priority)
        case .object(let members, let priority):
            var object: [JSONKey: JSONValue] = [:]
            for (key, member) in members { object[JSONKey(key)] = member.json }
            if let priority { object[".priority"] = Self.json(priority) }
            return .object(object)
        }
    }

    /// True when the value holds anything at all (so it is not a delete).
    var hasContent: Bool {
        switch self {
        case .null: false
        case .leaf, .increment, .timestamp: true
        case .object(let members, _): members.contains { $0.1.hasContent }
        }
    }

    static func json(_ leaf: LeafValue) -> JSONValue {
        switch leaf {
        case .bool(let value): .bool(value)
        case .int(let value): .int(value)
        case .double(let value): .double(value)
        case .string(let value): .string(value)
        }
    }

    static func json(_ priority: Priority) -> JSONValue { Self.json(priority.leafValue) }

    private static func placeholder(_ value: JSONValue, _ priority: Priority?) -> JSONValue {
        guard let priority, case .object(var members) = value else { return value }
        members[".priority"] = Self.json(priority)
        return .object(members)
    }

    /// The write value the state machine receives for this spec at `path`.
    func writeValue(at path: Path) throws -> WriteValue {
        try WriteValue.parseWrite(self.json.jsonBytes(), depth: path.count)
    }

    /// A random value: small integers, halves (never integral), short strings, booleans, placeholders, priorities.
    static func random(_ random: inout SeededRandom, depth: Int) -> ValueSpec {
        let priority: Priority? = Int.random(in: 0..<4, using: &random) == 0 ? Self.priority(&random) : nil
        switch Int.random(in: 0..<(depth > 0 ? 8 : 5), using: &random) {
        case 0: return .null
        case 1, 2: return .leaf(Self.leaf(&random), priority)
        case 3: return .increment(Int64.random(in: -3...3, using: &random), priority)
        case 4: return .timestamp(priority)
        default:
            let keys = ["m", "n", "o"].filter { _ in Bool.random(using: &random) }
            return .object(keys.map { ($0, Self.random(&random, depth: depth - 1)) }, priority)
        }
    }

    static func leaf(_ random: inout SeededRandom) -> LeafValue {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: .bool(Bool.random(using: &random))
        case 1: .double(Double(Int.random(in: -20...20, using: &random)) + 0.5)
        case 2: .string(["s", "t", "u"][Int.random(in: 0..<3, using: &random)])
        default: .int(Int64.random(in: -20...20, using: &random))
        }
    }

    static func priority(_ random: inout SeededRandom) -> Priority {
        switch Int.random(in: 0..<3, using: &random) {
        case 0: .int(Int64.random(in: -5...5, using: &random))
        case 1: .double(Double(Int.random(in: -5...5, using: &random)) + 0.25)
        default: .string(["p", "q"][Int.random(in: 0..<2, using: &random)])
        }
    }
}

/// A priority a model test writes with `.setPriority`.
enum PrioritySpec {
    case fixed(Priority?)
    case increment(Int64)
    case timestamp

    func writeValue() throws -> WriteValue {
        let json: JSONValue
        switch self {
        case .fixed(let priority?): json = ValueSpec.json(priority)
        case .fixed(nil): json = .null
        case .increment(let delta): json = .object([".sv": .object(["increment": .int(delta)])])
        case .timestamp: json = .object([".sv": .string("timestamp")])
        }
        return try WriteValue.parseWrite(json.jsonBytes(), depth: 0)
    }

    static func random(_ random: inout SeededRandom) -> PrioritySpec {
        switch Int.random(in: 0..<5, using: &random) {
        case 0: .fixed(nil)
        case 1, 2: .fixed(ValueSpec.priority(&random))
        case 3: .increment(Int64.random(in: -2...2, using: &random))
        default: .timestamp
        }
    }
}
