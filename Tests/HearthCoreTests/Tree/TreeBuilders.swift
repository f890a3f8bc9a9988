import HearthCore

/// Small constructors so tests can write JSON-like trees by hand.
enum TreeBuilders {
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
}
