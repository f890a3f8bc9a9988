/// Finishing objects and arrays of a write: children maps, `.value`/`.sv`/`.priority`, and error messages.
extension WriteValueBuilder {
    static let priorityRule = "\".priority\" must be a number, a string, null or {\".sv\": …}"
    static let serverValueRule = "\".sv\" must be \"timestamp\" or {\"increment\": <number>}"

    /// Turns a data object or array into its node, applying `.sv`, `.value` and `.priority`.
    mutating func finishData(_ container: Container) throws -> Fragment {
        var node: Node
        var pending: Pending?
        if let serverValue = container.serverValue {
            guard !container.hasChildKeys && container.value == nil else {
                throw self.invalid("\".sv\" can only sit beside \".priority\"", parent: true)
            }
            node = .empty
            pending = Pending(placeholders: self.rootPlaceholders(serverValue), fillsValues: true)
        } else if let value = container.value {
            guard !container.hasChildKeys else {
                throw self.invalid("\".value\" can't sit beside other children", parent: true)
            }
            node = value.node
            pending = value.pending
        } else {
            (node, pending) = self.makeChildren(container)
        }
        switch container.priority {
        case nil:
            break
        case .fixed(let priority)?:
            node = node.withPriority(priority)
            if node.isEmpty, var filling = pending, filling.fillsValues {
                filling.priorities[.root] = priority
                pending = filling
            }
        case .serverValue(let serverValue)?:
            var withPriority = pending ?? Pending()
            withPriority.placeholders.append(ServerValuePlaceholder(path: .root, value: serverValue, isPriority: true))
            pending = withPriority
        }
        return Fragment(node: node, pending: pending)
    }

    /// The most lists `rootPlaceholders(_:)` keeps (a star's increments of +1 and -1).
    static let keptRootPlaceholders = 2

    /// The list of one placeholder for `serverValue` at the value's root: one made lately for the same server value
    /// (an array is a value: the list is shared, never changed in place), else a new one, kept in place of the
    /// oldest. A realtime client's increments are nearly always the same few, and each new list was an allocation on
    /// the thread that reads the write, freed on another.
    mutating func rootPlaceholders(_ serverValue: ServerValue) -> [ServerValuePlaceholder] {
        guard self.keepsRootPlaceholders else {
            return [ServerValuePlaceholder(path: .root, value: serverValue, isPriority: false)]
        }
        return Self.rootPlaceholders(serverValue, keptIn: &self.recentRootPlaceholders)
    }

    /// `rootPlaceholders(_:)` with the lists made lately in `recent` (a reader's, also for the server values it reads
    /// without a builder: `WriteValue.Reader.readServerValueAlone`).
    static func rootPlaceholders(
        _ serverValue: ServerValue, keptIn recent: inout [[ServerValuePlaceholder]]
    ) -> [ServerValuePlaceholder] {
        // Every list kept holds one placeholder at the root, not a priority: only its server value tells it apart.
        for index in recent.indices where recent[index].first?.value == serverValue { return recent[index] }
        let list = [ServerValuePlaceholder(path: .root, value: serverValue, isPriority: false)]
        if recent.count >= Self.keptRootPlaceholders { recent.removeFirst() }
        recent.append(list)
        return list
    }

    /// Sorts the children once (or finds them sorted), keeps the last of duplicated keys, and lifts the children's
    /// placeholders one level up.
    /// - Complexity: O(n) when the keys arrive in order, O(n log n) otherwise; O(p) for p placeholders below.
    private func makeChildren(_ container: Container) -> (Node, Pending?) {
        var overwritten: Set<Int> = []
        let children: ChildMap
        if container.isArray {
            let elements = container.elements
            children = elements.finish()
        } else if container.isSorted {
            children = ChildMap(sortedUniqueElements: container.children)
        } else {
            let entries = container.children
            let order = KeySortKey.order(entries.map(\.key))
            var elements: [ChildMap.Element] = []
            elements.reserveCapacity(order.count)
            for (position, index) in order.enumerated() {
                if position + 1 < order.count, entries[order[position + 1]].key == entries[index].key {
                    overwritten.insert(index)
                    continue
                }
                elements.append(entries[index])
            }
            children = ChildMap(sortedUniqueElements: elements)
        }
        let node = Node(children: children)
        guard !container.childPending.isEmpty else { return (node, nil) }
        var pending = Pending()
        for entry in container.childPending where !overwritten.contains(entry.index) {
            for var placeholder in entry.pending.placeholders {
                placeholder.path = Path(keys: [entry.key] + placeholder.path.keys)
                pending.placeholders.append(placeholder)
            }
            for (path, priority) in entry.pending.priorities {
                pending.priorities[Path(keys: [entry.key] + path.keys)] = priority
            }
            if entry.pending.fillsValues { pending.fillsValues = true }
        }
        return (node, pending)
    }

    /// Interprets the value of `.priority`.
    func priorityEntry(from value: Fragment) throws -> PriorityEntry {
        if let serverValue = value.serverValue { return .serverValue(serverValue) }
        switch value.node.leafValue {
        case .int(let number)?: return .fixed(.int(number))
        case .double(let number)?: return .fixed(.double(number))
        case .string(let text)?: return .fixed(.string(text))
        case .bool?: throw self.invalid(Self.priorityRule)
        case nil:
            guard value.node.isEmpty else { throw self.invalid(Self.priorityRule) }
            return .fixed(nil)
        }
    }

    /// Interprets the value of `.sv`.
    func serverValue(from value: Fragment) throws -> ServerValue {
        if let serverValue = value.serverValue { return serverValue }
        if case .string("timestamp")? = value.node.leafValue { return .timestamp }
        throw self.invalid(Self.serverValueRule)
    }

    /// A data-rule error at the current location (or its parent, the object being read).
    func invalid(_ reason: String, parent: Bool = false) -> PathError {
        PathError(.invalidValue, "Invalid data\(self.locationSuffix(parent: parent)): \(reason).")
    }

    /// ` at "a/b"` naming where below the write location the problem is, or nothing at the write location itself.
    func locationSuffix(parent: Bool) -> String {
        let keys = parent ? self.location.dropLast() : self.location[...]
        guard !keys.isEmpty else { return "" }
        return " at \(PathError.quoted(keys.joined(separator: "/")))"
    }
}
