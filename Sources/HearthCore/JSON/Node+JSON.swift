/// Reading a tree as JSON: REST responses, exports, and the values inside wire-protocol messages.
extension Node {
    /// Streams the tree as JSON to `output` in chunks of about 64 KiB, so even a very large tree never needs one
    /// giant array. An empty node is `null`.
    /// - Complexity: O(n) in the size of the tree.
    public func writeJSON(format: NodeJSONFormat = .plain, pretty: Bool = false, to output: inout some JSONOutput) {
        var writer = JSONWriter(pretty: pretty)
        writer.write(self, format: format, to: &output)
    }

    /// The tree as JSON bytes (see `NodeJSONFormat` for what each format keeps).
    /// - Complexity: O(n) in the size of the tree.
    public func jsonBytes(format: NodeJSONFormat = .plain, pretty: Bool = false) -> [UInt8] {
        var writer = JSONWriter(pretty: pretty)
        var bytes: [UInt8] = []
        writer.write(self, format: format, to: &bytes)
        return bytes
    }

    /// REST's `shallow=true` form: an object becomes `{"key": true, …}`, a leaf is returned as is, empty is `null`.
    /// - Complexity: O(number of children).
    public func shallowJSONBytes(pretty: Bool = false) -> [UInt8] {
        var writer = JSONWriter(pretty: pretty)
        var bytes: [UInt8] = []
        writer.writeShallow(self, to: &bytes)
        return bytes
    }

    /// One level of the tree (`shallow=values`): leaf children with their values, a child object as `{}`.
    /// - Complexity: O(number of children) plus the size of the leaf children.
    public func oneLevelJSONBytes() -> [UInt8] {
        var writer = JSONWriter(pretty: false)
        var bytes: [UInt8] = []
        writer.writeOneLevel(self, to: &bytes)
        return bytes
    }

    /// The tree as a `JSONValue`, for embedding in wire-protocol messages.
    /// - Complexity: O(n) in the size of the tree (plus hashing into each object's dictionary).
    public func jsonValue(format: NodeJSONFormat) -> JSONValue {
        if let leaf = self.leafValue {
            let value = leaf.jsonValue
            if format == .export, let priority = self.priority {
                return .object([".value": value, ".priority": priority.jsonValue])
            }
            return value
        }
        let children = self.children
        if children.isEmpty { return .null }
        if format == .plain, let length = children.arrayRuleLength {
            var elements = [JSONValue](repeating: .null, count: length)
            for (key, child) in children {
                elements[Int(key.integerValue ?? 0)] = child.jsonValue(format: format)
            }
            return .array(elements)
        }
        var members: [JSONKey: JSONValue] = [:]
        members.reserveCapacity(children.count + 1)
        for (key, child) in children {
            members[JSONKey(key)] = child.jsonValue(format: format)
        }
        if format == .export, let priority = self.priority {
            members[".priority"] = priority.jsonValue
        }
        return .object(members)
    }
}

extension LeafValue {
    /// The leaf as a JSON scalar.
    public var jsonValue: JSONValue {
        switch self {
        case .bool(let flag): .bool(flag)
        case .int(let number): .int(number)
        case .double(let number): .double(number)
        case .string(let text): .string(text)
        }
    }
}

extension Priority {
    /// The priority as a JSON scalar.
    public var jsonValue: JSONValue {
        switch self {
        case .int(let number): .int(number)
        case .double(let number): .double(number)
        case .string(let text): .string(text)
        }
    }
}
