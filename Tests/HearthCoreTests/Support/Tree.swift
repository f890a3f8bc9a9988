import HearthCore

/// Small constructors so tree and query tests can write JSON-like trees by hand, and read keys back.
enum Tree {
    static func key(_ string: String) -> Key {
        Key(unchecked: string)
    }

    static func leaf(_ value: LeafValue, priority: Priority? = nil) -> Node {
        Node(value, priority: priority)
    }

    /// A children node from members in any order; empty members are dropped.
    static func object(_ members: [(String, Node)], priority: Priority? = nil) -> Node {
        var map = ChildMap()
        for (name, node) in members {
            map.update(Key(unchecked: name), with: node)
        }
        return Node(children: map, priority: priority)
    }

    /// The keys of a query window, in the window's order.
    static func keys(_ children: [(key: Key, node: Node)]) -> [String] {
        children.map(\.key.string)
    }

    /// The keys of a node's children, in key order.
    static func keys(_ node: Node) -> [String] {
        node.children.map(\.key.string)
    }
}
