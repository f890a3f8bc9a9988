/// Writing trees: the plain form (with Firebase's array rule), the export form and the shallow form.
extension JSONWriter {
    /// Writes `node` in `format` and hands every byte to `output`, in chunks of about `chunkSize`.
    /// - Complexity: O(n) in the size of the tree; recursion as deep as the tree.
    public mutating func write(_ node: Node, format: NodeJSONFormat, to output: inout some JSONOutput) {
        self.writeNode(node, format: format, to: &output)
        self.flush(to: &output)
    }

    /// Writes `node` in `format` by appending to `output` without an intermediate copy.
    public mutating func write(_ node: Node, format: NodeJSONFormat, to output: inout [UInt8]) {
        self.writingDirectly(into: &output) { writer in
            var unused: [UInt8] = []
            writer.writeNode(node, format: format, to: &unused)
        }
    }

    /// Writes REST's `shallow=true` form of `node`: an object becomes `{"key": true, …}`, a leaf is written as is
    /// (without its priority), and an empty node is `null`.
    /// - Complexity: O(number of children).
    public mutating func writeShallow(_ node: Node, to output: inout some JSONOutput) {
        self.writeLevel(node, to: &output) { writer, _ in writer.writeASCII("true") }
    }

    /// Writes one level of `node` (`shallow=values`, Hearth's form for browsing a tree a level at a time): an object
    /// becomes `{"key": value, …}` where a leaf child keeps its value and a child with children of its own is `{}`
    /// (never a stored value: an empty object is no value), a leaf is written as is, and an empty node is `null`.
    /// Unlike REST's `shallow=true`, a child `true` and a child object can be told apart.
    /// - Complexity: O(number of children) plus the size of the leaf children.
    public mutating func writeOneLevel(_ node: Node, to output: inout some JSONOutput) {
        self.writeLevel(node, to: &output) { writer, child in
            if let leaf = child.leafValue { writer.writeLeaf(leaf) } else { writer.writeASCII("{}") }
        }
    }

    /// Writes `node` one level deep: a leaf as is, an empty node as `null`, an object as its keys, each followed by
    /// what `writeChild` writes for that child.
    private mutating func writeLevel(
        _ node: Node, to output: inout some JSONOutput, child writeChild: (inout JSONWriter, Node) -> Void
    ) {
        let children = node.children
        if let leaf = node.leafValue {
            self.writeLeaf(leaf)
        } else if children.isEmpty {
            self.writeASCII("null")
        } else {
            self.open(UInt8(ascii: "{"))
            var isFirst = true
            for (key, child) in children {
                self.separate(isFirst: isFirst)
                isFirst = false
                self.writeKey(key.string)
                writeChild(&self, child)
                self.flushIfFull(to: &output)
            }
            self.close(UInt8(ascii: "}"), isEmpty: false)
        }
        self.flush(to: &output)
    }

    private mutating func writeNode(_ node: Node, format: NodeJSONFormat, to output: inout some JSONOutput) {
        if node.withStringLeafUTF8({ self.writeQuoted($0) }) != nil { return }
        if let leaf = node.leafValue {
            if format == .export, let priority = node.priority {
                self.open(UInt8(ascii: "{"))
                self.separate(isFirst: true)
                self.writeKey(".value")
                self.writeLeaf(leaf)
                self.separate(isFirst: false)
                self.writeKey(".priority")
                self.writePriority(priority)
                self.close(UInt8(ascii: "}"), isEmpty: false)
            } else {
                self.writeLeaf(leaf)
            }
            return
        }
        let children = node.children
        if children.isEmpty {
            self.writeASCII("null")
            return
        }
        if format == .plain, let length = children.arrayRuleLength {
            self.open(UInt8(ascii: "["))
            var next = 0
            for (key, child) in children {
                let index = Int(key.integerValue ?? 0)
                while next < index {
                    self.separate(isFirst: next == 0)
                    self.writeASCII("null")
                    next += 1
                }
                self.separate(isFirst: next == 0)
                self.writeNode(child, format: format, to: &output)
                self.flushIfFull(to: &output)
                next += 1
            }
            if next != length {
                preconditionFailure("array rule wrote \(next) elements in state length=\(length)")
            }
            self.close(UInt8(ascii: "]"), isEmpty: false)
            return
        }
        self.open(UInt8(ascii: "{"))
        var isFirst = true
        for (key, child) in children {
            self.separate(isFirst: isFirst)
            isFirst = false
            self.writeKey(key.string)
            self.writeNode(child, format: format, to: &output)
            self.flushIfFull(to: &output)
        }
        if format == .export, let priority = node.priority {
            self.separate(isFirst: false)
            self.writeKey(".priority")
            self.writePriority(priority)
        }
        self.close(UInt8(ascii: "}"), isEmpty: false)
    }

    mutating func writeLeaf(_ leaf: LeafValue) {
        switch leaf {
        case .bool(let flag): self.writeBool(flag)
        case .int(let number): self.writeInt(number)
        case .double(let number): self.writeDouble(number)
        case .string(let text): self.writeString(text)
        }
    }

    mutating func writePriority(_ priority: Priority) {
        switch priority {
        case .int(let number): self.writeInt(number)
        case .double(let number): self.writeDouble(number)
        case .string(let text): self.writeString(text)
        }
    }
}

extension ChildMap {
    /// Firebase's array rule: when every key is a canonical non-negative integer (`0|[1-9][0-9]*`) and the largest
    /// is below twice the number of children, the length of the array to render (`maxKey + 1`); else `nil`.
    /// - Complexity: O(n).
    var arrayRuleLength: Int? {
        guard let last = self.last, let maxKey = last.key.integerValue else { return nil }
        for (key, _) in self where !key.isCanonicalArrayIndex {
            return nil
        }
        let length = Int(maxKey) + 1
        return length <= 2 * self.count ? length : nil
    }
}

extension Key {
    /// True for `0` and `[1-9][0-9]*` within `Int32`: the keys JavaScript would treat as array indices.
    var isCanonicalArrayIndex: Bool {
        guard let value = self.integerValue, value >= 0, let first = self.string.utf8.first else { return false }
        return first != UInt8(ascii: "-") && (first != UInt8(ascii: "0") || value == 0 && self.string.utf8.count == 1)
    }
}
