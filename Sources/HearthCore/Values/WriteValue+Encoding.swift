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
        guard self.hasServerValues else {
            if let source = self.sourceJSON { return bytes.append(contentsOf: source) }
            if Self.appendPlainLeafJSON(of: self.node, to: &bytes) { return }
            var writer = JSONWriter()
            return writer.write(self.node, format: .export, to: &bytes)
        }
        if !self.appendSoleServerValueJSON(to: &bytes) { bytes += self.jsonValue().jsonBytes() }
    }

    /// Appends the text of `node` in export format when it is `null`, a boolean or an integer without a priority (a
    /// realtime client's value, which keeps no source text: a star's `true`), as `JSONWriter` writes it, without a
    /// writer; false, having appended nothing, for any other node.
    private static func appendPlainLeafJSON(of node: Node, to bytes: inout [UInt8]) -> Bool {
        if node.isEmpty {
            bytes += "null".utf8
            return true
        }
        guard node.priority == nil else { return false }
        switch node.leafValue {
        case .bool(let flag)?: bytes += flag ? "true".utf8 : "false".utf8
        case .int(let number)?: JSONWriter.appendDecimal(number, to: &bytes)
        case .double?, .string?, nil: return false
        }
        return true
    }

    /// Appends the text of a value that is one server value and nothing else (an increment, a timestamp: the
    /// commonest value in a log), written directly rather than through `JSONValue` objects; false, having appended
    /// nothing, for any other value.
    private func appendSoleServerValueJSON(to bytes: inout [UInt8]) -> Bool {
        guard self.node.isEmpty, self.pendingPriorities.isEmpty, self.placeholders.count == 1,
            let placeholder = self.placeholders.first, !placeholder.isPriority, placeholder.path == .root
        else { return false }
        switch placeholder.value {
        case .timestamp:
            bytes += #"{".sv":"timestamp"}"#.utf8
        case .increment(let delta):
            bytes += #"{".sv":{"increment":"#.utf8
            if case .int(let number) = delta {
                JSONWriter.appendDecimal(number, to: &bytes)
            } else {
                var writer = JSONWriter()
                writer.write(Node(delta), format: .export, to: &bytes)
            }
            bytes += "}}".utf8
        }
        return true
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
