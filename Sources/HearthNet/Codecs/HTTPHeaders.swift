/// The header fields of an HTTP message, kept in arrival order so they can be forwarded and serialised faithfully.
///
/// Field names compare case-insensitively (ASCII folding, RFC 9110 §5.1) while keeping the spelling they were given.
/// Lookup is O(n) in the number of fields, which is the right trade for the handful of fields a request carries.
public struct HTTPHeaders: Sendable, Sequence {
    private var pairs: [(name: String, value: String)]

    public init(_ pairs: [(String, String)] = []) {
        self.pairs = pairs.map { (name: $0.0, value: $0.1) }
    }

    /// The first value of the field `name`, compared case-insensitively; `nil` when the field is absent.
    public subscript(name: String) -> String? {
        // Each field's name is compared where it lies: iterating the pairs would copy every one, retaining its name
        // and value (a REST write looks up about fifteen fields of its request).
        self.pairs.withUnsafeBufferPointer { pairs in
            for index in pairs.indices where Self.namesEqual(pairs[index].name, name) {
                return pairs[index].value
            }
            return nil
        }
    }

    /// Calls `body` with the fields where they lie, in arrival order: a walk over every field that copies (and
    /// retains) none, for the checks of a parsed head (`HTTPRequestParser`).
    func withFields<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<(name: String, value: String)>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try self.pairs.withUnsafeBufferPointer(body)
    }

    /// Every value of the field `name`, in arrival order.
    public func values(_ name: String) -> [String] {
        var values: [String] = []
        for pair in self.pairs where Self.namesEqual(pair.name, name) { values.append(pair.value) }
        return values
    }

    /// Whether at least one field is called `name`.
    public func contains(_ name: String) -> Bool {
        self.pairs.contains { Self.namesEqual($0.name, name) }
    }

    /// The number of fields, counting repeated names separately.
    public var count: Int { self.pairs.count }

    /// Makes room for `count` fields in all, so that adding them allocates once (a parsed head knows its count).
    public mutating func reserveCapacity(_ count: Int) {
        self.pairs.reserveCapacity(count)
    }

    /// Appends a field, keeping any earlier fields of the same name.
    public mutating func add(_ name: String, _ value: String) {
        self.pairs.append((name: name, value: value))
    }

    /// Sets the field `name` to `value` in place of its first occurrence, dropping any later ones; appends it when
    /// absent.
    public mutating func replaceOrAdd(_ name: String, _ value: String) {
        guard let first = self.pairs.firstIndex(where: { Self.namesEqual($0.name, name) }) else {
            self.add(name, value)
            return
        }
        self.pairs[first] = (name: self.pairs[first].name, value: value)
        var index = first + 1
        while index < self.pairs.count {
            if Self.namesEqual(self.pairs[index].name, name) {
                self.pairs.remove(at: index)
            } else {
                index += 1
            }
        }
    }

    /// Removes every field called `name`.
    public mutating func remove(_ name: String) {
        self.pairs.removeAll { Self.namesEqual($0.name, name) }
    }

    /// Whether the comma-separated list in field `name` holds `token`, compared case-insensitively
    /// (used for `Connection: close, Upgrade` and `Expect`).
    public func containsToken(_ token: String, in name: String) -> Bool {
        // Names compared where they lie, as `subscript(_:)` does; only a field of that name is split.
        self.pairs.withUnsafeBufferPointer { pairs in
            pairs.indices.contains {
                Self.namesEqual(pairs[$0].name, name) && Self.list(pairs[$0].value, contains: token)
            }
        }
    }

    /// Whether the comma-separated list `value` holds `token`, compared case-insensitively, each element without
    /// the spaces and tabs around it.
    static func list(_ value: String, contains token: String) -> Bool {
        value.split(separator: ",").contains { Self.namesEqual(Self.trimmed($0), token) }
    }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        self.pairs.makeIterator()
    }

    /// ASCII case-insensitive equality, without allocating.
    static func namesEqual(_ lhs: some StringProtocol, _ rhs: some StringProtocol) -> Bool {
        let left = lhs.utf8
        let right = rhs.utf8
        guard left.count == right.count else { return false }
        // Native strings compare over their bytes in place (every lookup of every request and response does this).
        let inPlace = left.withContiguousStorageIfAvailable { left in
            right.withContiguousStorageIfAvailable { right in
                zip(left, right).allSatisfy { Self.lowercased($0) == Self.lowercased($1) }
            }
        }
        if let inPlace = inPlace ?? nil { return inPlace }
        for (a, b) in zip(left, right) where Self.lowercased(a) != Self.lowercased(b) {
            return false
        }
        return true
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    private static func trimmed(_ text: Substring) -> Substring {
        var result = text
        while let first = result.first, first == " " || first == "\t" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}
