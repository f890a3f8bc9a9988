/// Writing a write back out as JSON, server-value placeholders included, so a log can store a write before its
/// server values are resolved and parse it back unchanged.
extension WriteValue {
    /// The value as JSON that `WriteValue.parseWrite` reads back to an equal value: the node in export format with
    /// every placeholder written as `{".sv": …}` and every pending priority beside the content it belongs to.
    /// - Complexity: O(n) in the size of the node, plus O(p × depth) for p placeholders.
    public func jsonValue() -> JSONValue {
        var value: JSONValue = self.node.isEmpty ? .null : self.node.jsonValue(format: .export)
        for placeholder in self.placeholders where !placeholder.isPriority {
            value = Self.setting(placeholder.value.jsonValue, at: placeholder.path.keys[...], in: value)
        }
        for (path, priority) in self.pendingPriorities {
            value = Self.updating(at: path.keys[...], in: value) { Self.adding(priority: priority.jsonValue, to: $0) }
        }
        for placeholder in self.placeholders where placeholder.isPriority {
            value = Self.updating(at: placeholder.path.keys[...], in: value) {
                Self.adding(priority: placeholder.value.jsonValue, to: $0)
            }
        }
        return value
    }

    /// `jsonValue()` as compact UTF-8 JSON; the client's own text when it was kept and there is nothing to resolve.
    public func jsonBytes() -> [UInt8] {
        if !self.hasServerValues, let source = self.sourceJSON { return source }
        var bytes: [UInt8] = []
        self.appendJSON(to: &bytes)
        return bytes
    }

    /// Appends `jsonBytes()` to `bytes`, building no array of its own for the usual values (a log record is written
    /// in one buffer this way).
    public func appendJSON(to bytes: inout [UInt8]) {
        if let text = self.shortJSON {
            return BinaryWriter.append(count: text.count, to: &bytes) { text.write(to: &$0) }
        }
        guard self.hasServerValues else {
            var writer = JSONWriter()
            return writer.write(self.node, format: .export, to: &bytes)
        }
        guard case .increment(let delta)? = self.soleServerValue else {
            return bytes += self.jsonValue().jsonBytes()
        }
        // An increment by a number that is not an integer: its text is the writer's.
        bytes += #"{".sv":{"increment":"#.utf8
        var writer = JSONWriter()
        writer.write(Node(delta), format: .export, to: &bytes)
        bytes += "}}".utf8
    }

    /// The server value this value is, when it is one and nothing else (an increment, a timestamp: the commonest
    /// value in a log); nil for any other value.
    var soleServerValue: ServerValue? {
        guard self.node.isEmpty, self.pendingPriorities.isEmpty, self.placeholders.count == 1,
            let placeholder = self.placeholders.first, !placeholder.isPriority, placeholder.path == .root
        else { return nil }
        return placeholder.value
    }

    private static func setting(_ member: JSONValue, at keys: ArraySlice<Key>, in value: JSONValue) -> JSONValue {
        Self.updating(at: keys, in: value) { _ in member }
    }

    /// `value` with `change` applied to the member at `keys`, creating objects on the way (a `.value` wrapper is
    /// entered: it holds the content of a node that also has a priority).
    private static func updating(
        at keys: ArraySlice<Key>, in value: JSONValue, _ change: (JSONValue) -> JSONValue
    ) -> JSONValue {
        guard let key = keys.first else { return change(value) }
        var members: [JSONKey: JSONValue]
        if case .object(let existing) = value {
            members = existing
        } else {
            members = [:]
        }
        if let wrapped = members[".value"], members[".sv"] == nil {
            members[".value"] = Self.updating(at: keys, in: wrapped, change)
            return .object(members)
        }
        members[JSONKey(key)] = Self.updating(at: keys.dropFirst(), in: members[JSONKey(key)] ?? .null, change)
        return .object(members)
    }

    /// Puts a `.priority` beside `content`: a member of an object of children, or a `.value` wrapper around a leaf
    /// or a placeholder.
    private static func adding(priority: JSONValue, to content: JSONValue) -> JSONValue {
        if case .object(var members) = content, members[".sv"] == nil {
            members[".priority"] = priority
            return .object(members)
        }
        return .object([".value": content, ".priority": priority])
    }
}

extension ServerValue {
    /// The `{".sv": …}` placeholder a client sends for this server value.
    public var jsonValue: JSONValue {
        switch self {
        case .timestamp: .object([".sv": .string("timestamp")])
        case .increment(let delta): .object([".sv": .object(["increment": Node(delta).jsonValue(format: .export)])])
        }
    }
}
