/// Writing `JSONValue` documents (protocol messages, request parameters).
extension JSONWriter {
    /// Writes `value` and hands every byte to `output`.
    ///
    /// Object members are written in `Key` order (Firebase's child order), so equal values give equal bytes.
    /// - Complexity: O(n log n) for n members of one object (they are sorted); recursion as deep as the value.
    public mutating func write(_ value: JSONValue, to output: inout some JSONOutput) {
        self.writeValue(value, to: &output)
        self.flush(to: &output)
    }

    /// Writes `value` by appending to `output` without an intermediate copy.
    public mutating func write(_ value: JSONValue, to output: inout [UInt8]) {
        self.writingDirectly(into: &output) { writer in
            var unused: [UInt8] = []
            writer.writeValue(value, to: &unused)
        }
    }

    private mutating func writeValue(_ value: JSONValue, to output: inout some JSONOutput) {
        switch value {
        case .null: self.writeASCII("null")
        case .bool(let flag): self.writeBool(flag)
        case .int(let number): self.writeInt(number)
        case .double(let number): self.writeDouble(number)
        case .string(let text): self.writeString(text)
        case .array(let elements):
            self.open(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                self.separate(isFirst: offset == 0)
                self.writeValue(element, to: &output)
                self.flushIfFull(to: &output)
            }
            self.close(UInt8(ascii: "]"), isEmpty: elements.isEmpty)
        case .object(let members):
            self.open(UInt8(ascii: "{"))
            for (offset, member) in Self.ordered(members).enumerated() {
                self.separate(isFirst: offset == 0)
                self.writeKey(member.key.string)
                self.writeValue(member.value, to: &output)
                self.flushIfFull(to: &output)
            }
            self.close(UInt8(ascii: "}"), isEmpty: members.isEmpty)
        }
    }

    /// An object's members in `Key` order. A large object (a post's thousand stars) goes through the sort keys,
    /// read once per key; a small one (every protocol message) is sorted as it is, where the sort keys' arrays
    /// would cost more than they save.
    private static func ordered(_ members: [JSONKey: JSONValue]) -> [(key: JSONKey, value: JSONValue)] {
        guard members.count > 16 else {
            return members.sorted { $0.key.key < $1.key.key }
        }
        let unsorted = Array(members)
        return KeySortKey.order(unsorted.map(\.key.key)).map { unsorted[$0] }
    }
}

extension JSONValue {
    /// The value as compact (or pretty) JSON bytes.
    public func jsonBytes(pretty: Bool = false) -> [UInt8] {
        var writer = JSONWriter(pretty: pretty)
        var bytes: [UInt8] = []
        writer.write(self, to: &bytes)
        return bytes
    }

    /// The value as a compact (or pretty) JSON string.
    public func jsonString(pretty: Bool = false) -> String {
        String(decoding: self.jsonBytes(pretty: pretty), as: UTF8.self)
    }
}
