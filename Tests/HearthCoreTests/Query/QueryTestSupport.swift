import HearthCore

/// Small builders so query tests read like the JSON they describe.
enum Tree {
    static func key(_ string: String) -> Key { Key(unchecked: string) }

    static func leaf(_ value: LeafValue, priority: Priority? = nil) -> Node { Node(value, priority: priority) }

    /// An object node from `(key, child)` pairs in any order.
    static func object(_ members: [(String, Node)], priority: Priority? = nil) -> Node {
        var map = ChildMap()
        for (name, child) in members { map = map.updating(Key(unchecked: name), with: child) }
        return Node(children: map, priority: priority)
    }

    /// The keys of a window, in the window's order.
    static func keys(_ children: [(key: Key, node: Node)]) -> [String] { children.map(\.key.string) }

    /// The keys of an evaluated node, in key order.
    static func keys(_ node: Node) -> [String] { node.children.map(\.key.string) }
}
